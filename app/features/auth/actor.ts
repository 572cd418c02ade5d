import type { SessionUser } from "~/context";

/**
 * Who did something: the person a change and its audit entry name. The one actor type of the
 * app; code that also records where a request came from takes `Actor & { ip }` (`ActorAt`).
 */
export type Actor = { id: string; email: string; name: string };

/** An actor and the address the request came from (null when unknown). */
export type ActorAt = Actor & { ip: string | null };

export function actorOf(user: Pick<SessionUser, "id" | "email" | "displayName">): Actor {
  return { id: user.id, email: user.email, name: user.displayName };
}
