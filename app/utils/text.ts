/** How long a name may run inside a sentence (an e-mail's subject or body, a notification). */
export const NAME_IN_TEXT_MAX = 120;

/**
 * A name cut to `max` characters (code points, so no half of a surrogate pair), the last one an
 * ellipsis when it was cut; shorter names come back as they are.
 */
export function ellipsize(name: string, max = NAME_IN_TEXT_MAX): string {
  const chars = [...name];
  if (chars.length <= max) return name;
  return `${chars
    .slice(0, max - 1)
    .join("")
    .trimEnd()}…`;
}
