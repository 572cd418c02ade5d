/**
 * A streaming reader of multipart/form-data bodies. `request.formData()` holds the whole body in
 * memory; this reads the text fields (small, capped) and hands the file part over as a stream of
 * chunks, so an upload never has to fit in the Worker's memory. The file must be the last part
 * (forms put their file input last, and the script appends it last).
 */

const CRLF = new Uint8Array([13, 10]);
const MAX_FIELD_BYTES = 64 * 1024;
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_FIELDS = 600;

export class MultipartError extends Error {}

export type FilePart = { field: string; filename: string; contentType: string; stream: AsyncGenerator<Uint8Array> };

export function boundaryOf(contentType: string | null): string | null {
  if (!contentType || !/^multipart\/form-data/i.test(contentType)) return null;
  const m = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
  const b = (m?.[1] ?? m?.[2] ?? "").trim();
  return b && b.length <= 70 ? b : null;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0];
  const last = haystack.length - needle.length;
  for (let i = haystack.indexOf(first, from); i !== -1 && i <= last; i = haystack.indexOf(first, i + 1)) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j++;
    if (j === needle.length) return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a, 0);
  out.set(b, a.length);
  return out;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function parseHeaders(raw: string) {
  const headers = new Map<string, string>();
  for (const line of raw.split("\r\n")) {
    const idx = line.indexOf(":");
    if (idx > 0) headers.set(line.slice(0, idx).trim().toLowerCase(), line.slice(idx + 1).trim());
  }
  const disposition = headers.get("content-disposition") ?? "";
  const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
  const filename = /\bfilename="([^"]*)"/i.exec(disposition)?.[1];
  if (name === undefined) throw new MultipartError("part without a name");
  return { name, filename, contentType: headers.get("content-type") ?? "application/octet-stream" };
}

/**
 * Reads the text fields up to the first file part and returns them with that part. The file's
 * stream ends at the closing boundary; anything after it other than the end marker is an error.
 */
export async function readMultipart(body: ReadableStream<Uint8Array>, boundary: string): Promise<{ fields: [string, string][]; file: FilePart | null }> {
  const reader = body.getReader();
  const dash = encoder.encode(`--${boundary}`);
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  let buf: Uint8Array = new Uint8Array(0);
  let done = false;

  async function more(): Promise<boolean> {
    if (done) return false;
    const r = await reader.read();
    if (r.done) {
      done = true;
      return false;
    }
    buf = concat(buf, r.value);
    return true;
  }

  /** Bytes up to `needle` (consumed with it), at most `max` of them. */
  async function readUntil(needle: Uint8Array, max: number): Promise<Uint8Array> {
    for (;;) {
      const i = indexOf(buf, needle);
      // The limit holds however the bytes arrived: found in one chunk or gathered over many.
      if (i > max) throw new MultipartError("part too large");
      if (i !== -1) {
        const out = buf.slice(0, i);
        buf = buf.slice(i + needle.length);
        return out;
      }
      if (buf.length > max + needle.length) throw new MultipartError("part too large");
      if (!(await more())) throw new MultipartError("unexpected end of body");
    }
  }

  /** After a delimiter: '--' ends the body, CRLF starts another part. */
  async function afterDelimiter(): Promise<"end" | "part"> {
    while (buf.length < 2) if (!(await more())) throw new MultipartError("unexpected end of body");
    if (buf[0] === 45 && buf[1] === 45) return "end";
    if (buf[0] === 13 && buf[1] === 10) {
      buf = buf.slice(2);
      return "part";
    }
    throw new MultipartError("malformed boundary");
  }

  // Preamble, then the first boundary line.
  await readUntil(dash, MAX_HEADER_BYTES);
  const fields: [string, string][] = [];
  for (;;) {
    if ((await afterDelimiter()) === "end") return { fields, file: null };
    const head = parseHeaders(decoder.decode(await readUntil(encoder.encode("\r\n\r\n"), MAX_HEADER_BYTES)));
    if (head.filename === undefined) {
      if (fields.length >= MAX_FIELDS) throw new MultipartError("too many fields");
      fields.push([head.name, decoder.decode(await readUntil(delimiter, MAX_FIELD_BYTES))]);
      continue;
    }
    async function* stream(): AsyncGenerator<Uint8Array> {
      for (;;) {
        const i = indexOf(buf, delimiter);
        if (i !== -1) {
          if (i > 0) yield buf.slice(0, i);
          buf = buf.slice(i + delimiter.length);
          if ((await afterDelimiter()) !== "end") throw new MultipartError("the file must be the last field");
          return;
        }
        // Keep a tail that could be the start of the delimiter.
        const keep = delimiter.length - 1;
        if (buf.length > keep) {
          yield buf.slice(0, buf.length - keep);
          buf = buf.slice(buf.length - keep);
        }
        if (!(await more())) throw new MultipartError("unexpected end of body");
      }
    }
    return { fields, file: { field: head.name, filename: head.filename, contentType: head.contentType, stream: stream() } };
  }
}

export { CRLF };
