import type { SignActionData, CarriedSignature } from "./components/signing-steps";
import { parseSignaturePng, SIGNATURE_MESSAGES } from "./signature-rules";
import { signActionForm, type SignatureForm } from "./schemas";
import type { SignatureInput } from "./signatures.server";

/**
 * A signing page's post, read: what to answer without acting (a step with its data or an error
 * next to the field), or a decline with its reason, or a signature to record (consent given).
 * "bad": the post is not one of the page's forms.
 */
export type SignPost =
  | { kind: "bad" }
  | { kind: "respond"; data: SignActionData; status: 200 | 400 }
  | { kind: "decline"; reason: string }
  | { kind: "sign"; signature: SignatureInput };

function toInput(s: SignatureForm): SignatureInput | null {
  if (s.mode === "typed") return s.name ? { kind: "typed", name: s.name, font: s.font } : null;
  const png = parseSignaturePng(s.drawn);
  return png ? { kind: "drawn", png } : null;
}

export function readSignPost(form: FormData): SignPost {
  const parsed = signActionForm.safeParse({
    intent: form.get("intent"),
    signature: { mode: form.get("mode") ?? "typed", name: form.get("name") ?? "", font: form.get("font") ?? undefined, drawn: form.get("drawn") ?? "" },
    consent: form.get("consent") ?? undefined,
    reason: form.get("reason") ?? "",
  });
  if (!parsed.success) return { kind: "bad" };
  const input = parsed.data;
  if (input.intent === "decline") {
    if (!input.reason) return { kind: "respond", data: { step: "decline", error: "Give a reason for declining" }, status: 400 };
    return { kind: "decline", reason: input.reason };
  }
  const signature = toInput(input.signature);
  if (!signature) return { kind: "respond", data: { step: "signature", error: SIGNATURE_MESSAGES.noSignature, field: "signature" }, status: 400 };
  const carried: CarriedSignature =
    input.signature.mode === "typed"
      ? { mode: "typed", name: input.signature.name, font: input.signature.font }
      : { mode: "drawn", drawn: input.signature.drawn };
  if (input.intent === "preview") return { kind: "respond", data: { step: "confirm", signature: carried }, status: 200 };
  if (!input.consent) return { kind: "respond", data: { step: "confirm", signature: carried, error: "Tick the box to agree before signing" }, status: 400 };
  return { kind: "sign", signature };
}
