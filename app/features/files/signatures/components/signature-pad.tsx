import { useEffect, useRef, useState } from "react";
import { buttonClass } from "~/components/ui/button";
import { inputClass } from "~/components/ui/field";
import { useHydrated } from "~/utils/use-hydrated";
import { CANVAS_HEIGHT, CANVAS_WIDTH, PEN_COLOUR, SIGNATURE_FONTS, TYPED_SIZE_PX } from "../signature-rules";

export type PadValue = { mode: "typed" | "drawn"; name: string; font: string; drawn: string };

/**
 * Add Signature. Without JavaScript: Type only (a name and one of the six fonts, plain form
 * fields). With it: Draw (an 800x220 canvas, sent as a PNG data URL) or Type; switching tabs
 * and Clear empty the signature.
 */
// eslint-disable-next-line max-lines-per-function -- one interactive widget: its handlers share the same refs and state
export function SignaturePad({ initial, errorId }: { initial: PadValue; errorId?: string }) {
  const hydrated = useHydrated();
  const [mode, setMode] = useState<PadValue["mode"]>(initial.mode);
  const [name, setName] = useState(initial.name);
  const [font, setFont] = useState(initial.font);
  const [drawn, setDrawn] = useState("");
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);

  useEffect(() => {
    const c = canvas.current;
    if (!c) return;
    const g = c.getContext("2d");
    if (!g) return;
    g.fillStyle = "#ffffff";
    g.fillRect(0, 0, c.width, c.height);
  }, [mode]);

  const point = (e: React.PointerEvent<HTMLCanvasElement>) => {
    const c = e.currentTarget;
    const r = c.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * c.width) / r.width, y: ((e.clientY - r.top) * c.height) / r.height };
  };
  const switchTo = (m: PadValue["mode"]) => {
    setMode(m);
    setDrawn("");
    setName("");
  };
  const clear = () => {
    setDrawn("");
    setName("");
    const c = canvas.current;
    const g = c?.getContext("2d");
    if (c && g) {
      g.fillStyle = "#ffffff";
      g.fillRect(0, 0, c.width, c.height);
    }
  };

  return (
    <div className="space-y-3">
      <input type="hidden" name="mode" value={mode} />
      {hydrated ? (
        <div role="tablist" aria-label="Signature method" className="flex gap-2">
          {(["drawn", "typed"] as const).map((m) => (
            <button
              key={m}
              type="button"
              role="tab"
              aria-selected={mode === m}
              onClick={() => switchTo(m)}
              className={buttonClass(mode === m ? "primary" : "secondary")}
            >
              {m === "drawn" ? "Draw" : "Type"}
            </button>
          ))}
        </div>
      ) : null}
      {mode === "drawn" && hydrated ? (
        <div className="space-y-2">
          <input type="hidden" name="drawn" value={drawn} />
          <canvas
            ref={canvas}
            width={CANVAS_WIDTH}
            height={CANVAS_HEIGHT}
            aria-label="Draw your signature"
            aria-describedby={errorId}
            data-testid="signature-canvas"
            className="w-full max-w-[800px] touch-none rounded-brand border border-line bg-white"
            onPointerDown={(e) => {
              drawing.current = true;
              e.currentTarget.setPointerCapture(e.pointerId);
              const g = e.currentTarget.getContext("2d");
              const p = point(e);
              if (!g) return;
              g.strokeStyle = PEN_COLOUR;
              g.lineWidth = 3;
              g.lineCap = "round";
              g.lineJoin = "round";
              g.beginPath();
              g.moveTo(p.x, p.y);
            }}
            onPointerMove={(e) => {
              if (!drawing.current) return;
              const g = e.currentTarget.getContext("2d");
              const p = point(e);
              g?.lineTo(p.x, p.y);
              g?.stroke();
            }}
            onPointerUp={(e) => {
              drawing.current = false;
              setDrawn(e.currentTarget.toDataURL("image/png"));
            }}
          />
        </div>
      ) : (
        <div className="space-y-3">
          <label className="block text-sm">
            <span className="block font-medium">Type your name</span>
            <input
              name="name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={80}
              autoComplete="name"
              aria-describedby={errorId}
              className={inputClass}
            />
          </label>
          <fieldset className="grid gap-2 sm:grid-cols-2">
            <legend className="text-sm font-medium">Font</legend>
            {SIGNATURE_FONTS.map((f) => (
              <label key={f} className="flex items-center gap-2 rounded-brand border border-line bg-white p-2 text-[#1a1a1a]">
                <input type="radio" name="font" value={f} checked={font === f} onChange={() => setFont(f)} />
                <span className="w-28 shrink-0 text-xs opacity-70">{f}</span>
                <span aria-hidden="true" className="truncate" style={{ fontFamily: `'${f}', cursive`, fontSize: TYPED_SIZE_PX / 1.5 }}>
                  {name || "Your name"}
                </span>
              </label>
            ))}
          </fieldset>
        </div>
      )}
      <button type="button" onClick={clear} className={buttonClass("secondary")} hidden={!hydrated}>
        Clear
      </button>
    </div>
  );
}
