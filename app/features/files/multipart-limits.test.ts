/**
 * The properties any multipart reader behind upload and the portal's invoice PDF must keep:
 * the file is handed over as a stream before its bytes arrive, every part is bounded, names are
 * read as browsers send them, and a broken connection is not mistaken for a malformed body.
 */
import { describe, expect, it } from "vitest";
import { boundaryOf, MultipartError, readMultipart } from "./multipart";

const encoder = new TextEncoder();
const BOUNDARY = "----limits-test-boundary";

function part(headers: string, body: string): string {
  return `--${BOUNDARY}\r\n${headers}\r\n\r\n${body}\r\n`;
}

function field(name: string, value: string): string {
  return part(`Content-Disposition: form-data; name="${name}"`, value);
}

function bodyOf(text: string): ReadableStream<Uint8Array> {
  return new Response(text).body!;
}

async function drain(stream: AsyncIterable<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const c of stream) n += c.length;
  return n;
}

describe("readMultipart: streaming", () => {
  it("hands over the file part, and its first bytes, while the rest of the body has not arrived", async () => {
    const head = field("visibility", "private") + `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`;
    const first = new Uint8Array(64 * 1024).fill(7);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(encoder.encode(head));
        else if (sent === 1) controller.enqueue(first);
        else return new Promise<void>(() => undefined); // the rest never comes
        sent += 1;
      },
    });
    const { fields, file } = await readMultipart(body, BOUNDARY);
    expect(fields).toEqual([["visibility", "private"]]);
    expect(file?.filename).toBe("big.bin");
    const chunk = await file!.stream.next();
    expect(chunk.done).toBe(false);
    expect(chunk.value!.length).toBeGreaterThan(0);
  });

  it("passes a failure of the body itself (a dropped connection) through unchanged, not as a malformed body", async () => {
    const dropped = new Error("Network connection lost.");
    let sent = false;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent) return controller.error(dropped);
        controller.enqueue(encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nabc`));
        sent = true;
      },
    });
    const { file } = await readMultipart(body, BOUNDARY);
    await expect(drain(file!.stream)).rejects.toBe(dropped);
  });
});

describe("readMultipart: limits", () => {
  it("refuses more than 600 text fields", async () => {
    const ok = Array.from({ length: 600 }, (_, i) => field(`f${i}`, "x")).join("") + `--${BOUNDARY}--\r\n`;
    expect((await readMultipart(bodyOf(ok), BOUNDARY)).fields).toHaveLength(600);
    const tooMany = Array.from({ length: 601 }, (_, i) => field(`f${i}`, "x")).join("") + `--${BOUNDARY}--\r\n`;
    await expect(readMultipart(bodyOf(tooMany), BOUNDARY)).rejects.toBeInstanceOf(MultipartError);
  });

  it("refuses a text field over 64 KiB", async () => {
    const ok = field("notes", "a".repeat(64 * 1024)) + `--${BOUNDARY}--\r\n`;
    expect((await readMultipart(bodyOf(ok), BOUNDARY)).fields[0][1]).toHaveLength(64 * 1024);
    const big = field("notes", "a".repeat(64 * 1024 + 100)) + `--${BOUNDARY}--\r\n`;
    await expect(readMultipart(bodyOf(big), BOUNDARY)).rejects.toBeInstanceOf(MultipartError);
  });

  it("refuses part headers over 16 KiB and a preamble over 16 KiB", async () => {
    const header = part(`Content-Disposition: form-data; name="a"\r\nX-Padding: ${"p".repeat(17 * 1024)}`, "1") + `--${BOUNDARY}--\r\n`;
    await expect(readMultipart(bodyOf(header), BOUNDARY)).rejects.toBeInstanceOf(MultipartError);
    const preamble = "p".repeat(17 * 1024) + "\r\n" + field("a", "1") + `--${BOUNDARY}--\r\n`;
    await expect(readMultipart(bodyOf(preamble), BOUNDARY)).rejects.toBeInstanceOf(MultipartError);
  });

  it("refuses a part without a name", async () => {
    const body = part("Content-Disposition: form-data", "1") + `--${BOUNDARY}--\r\n`;
    await expect(readMultipart(bodyOf(body), BOUNDARY)).rejects.toBeInstanceOf(MultipartError);
  });

  it("refuses a body that ends before its closing boundary, before the file", async () => {
    await expect(readMultipart(bodyOf(field("a", "1")), BOUNDARY)).rejects.toBeInstanceOf(MultipartError);
  });
});

describe("readMultipart: names and types as browsers send them", () => {
  it("keeps a file name with a semicolon, spaces and non-ASCII letters, and the part's own Content-Type", async () => {
    const form = new FormData();
    form.append("file", new File(["%PDF-1.7"], "Invoice; Zoë final v2.pdf", { type: "application/pdf" }));
    const res = new Response(form);
    const { file } = await readMultipart(res.body!, boundaryOf(res.headers.get("Content-Type"))!);
    expect(file?.field).toBe("file");
    expect(file?.filename).toBe("Invoice; Zoë final v2.pdf");
    expect(file?.contentType).toBe("application/pdf");
    expect(await drain(file!.stream)).toBe(8);
  });

  it("reports an empty file input (no file chosen) as a file part with an empty name", async () => {
    const body = part('Content-Disposition: form-data; name="attachment"; filename=""\r\nContent-Type: application/octet-stream', "") + `--${BOUNDARY}--\r\n`;
    const { file } = await readMultipart(bodyOf(body), BOUNDARY);
    expect(file?.filename).toBe("");
    expect(await drain(file!.stream)).toBe(0);
  });

  it("accepts only multipart/form-data with a boundary of at most 70 characters", () => {
    expect(boundaryOf("multipart/form-data")).toBeNull();
    expect(boundaryOf(`multipart/form-data; boundary=${"b".repeat(70)}`)).toBe("b".repeat(70));
    expect(boundaryOf(`multipart/form-data; boundary=${"b".repeat(71)}`)).toBeNull();
    expect(boundaryOf("multipart/mixed; boundary=abc")).toBeNull();
  });
});
