import { useEffect, useRef, useState } from "react";
import { useHydrated } from "~/utils/use-hydrated";

/**
 * Without JavaScript: one plain numeric input named `code`. Once hydrated: six single-digit
 * boxes that advance on input, move back on Backspace, accept a pasted code and submit the
 * form on the sixth digit; a hidden `code` input carries the value.
 */
// eslint-disable-next-line max-lines-per-function -- one interactive widget: its handlers share the same refs and state
export function CodeInput({ error, resetKey }: { error?: string | null; resetKey?: unknown }) {
  const enhanced = useHydrated();
  const [digits, setDigits] = useState<string[]>(["", "", "", "", "", ""]);
  const [digitsFor, setDigitsFor] = useState(resetKey);
  const refs = useRef<(HTMLInputElement | null)[]>([]);
  const hidden = useRef<HTMLInputElement | null>(null);

  // A wrong code clears the boxes and refocuses the first: the person starts again from a clean
  // slate. The boxes are cleared while rendering (no effect round-trip showing the old digits).
  if (digitsFor !== resetKey) {
    setDigitsFor(resetKey);
    setDigits(["", "", "", "", "", ""]);
  }
  useEffect(() => {
    if (resetKey === undefined) return;
    if (hidden.current) hidden.current.value = "";
    refs.current[0]?.focus();
  }, [resetKey]);

  const describedBy = error ? "code-error" : undefined;
  if (!enhanced) {
    return (
      <input
        id="code"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]{6}"
        maxLength={6}
        required
        aria-label="6-digit code"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className="block w-full rounded-brand border border-line bg-primary-bg px-3 py-3 text-center text-2xl tracking-[0.5em]"
      />
    );
  }

  function update(next: string[]) {
    setDigits(next);
    const code = next.join("");
    if (hidden.current) hidden.current.value = code;
    if (code.length === 6 && /^\d{6}$/.test(code)) hidden.current?.form?.requestSubmit();
  }

  return (
    <div>
      <input ref={hidden} type="hidden" name="code" defaultValue="" />
      <div className="flex justify-between gap-2" role="group" aria-label="6-digit code">
        {digits.map((d, i) => (
          <input
            // biome-ignore lint: fixed six positions
            key={i}
            ref={(el) => {
              refs.current[i] = el;
            }}
            value={d}
            inputMode="numeric"
            autoComplete={i === 0 ? "one-time-code" : "off"}
            maxLength={1}
            aria-label={`Digit ${i + 1}`}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            data-code-box
            className="h-14 w-12 rounded-brand border border-line bg-primary-bg text-center text-2xl focus:border-accent focus:outline-none focus:ring-2 focus:ring-accent/40"
            onChange={(e) => {
              const value = e.target.value.replace(/\D/g, "");
              if (!value) return update(digits.map((x, j) => (j === i ? "" : x)));
              // Typing or pasting several digits fills the following boxes.
              const next = [...digits];
              let j = i;
              for (const ch of value) {
                if (j > 5) break;
                next[j++] = ch;
              }
              update(next);
              refs.current[Math.min(j, 5)]?.focus();
            }}
            onKeyDown={(e) => {
              if (e.key === "Backspace" && !digits[i] && i > 0) {
                e.preventDefault();
                update(digits.map((x, j) => (j === i - 1 ? "" : x)));
                refs.current[i - 1]?.focus();
              }
            }}
            onPaste={(e) => {
              const text = e.clipboardData.getData("text").replace(/\D/g, "").slice(0, 6);
              if (!text) return;
              e.preventDefault();
              const next = ["", "", "", "", "", ""].map((_, j) => text[j] ?? "");
              update(next);
              refs.current[Math.min(text.length, 5)]?.focus();
            }}
          />
        ))}
      </div>
    </div>
  );
}
