import { describe, expect, it } from "vitest";
import { boundaryOf, MultipartError, readMultipart } from "./multipart";

async function encode(form: FormData) {
  const res = new Response(form);
  return { bytes: new Uint8Array(await res.arrayBuffer()), boundary: boundaryOf(res.headers.get("Content-Type"))! };
}

function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

async function collect(gen: AsyncIterable<Uint8Array>): Promise<string> {
  let text = "";
  const decoder = new TextDecoder();
  for await (const c of gen) text += decoder.decode(c, { stream: true });
  return text + decoder.decode();
}

describe("readMultipart", () => {
  it.each([1, 3, 7, 64, 100_000])("reads fields and streams the last file part, whatever the chunk size (%i)", async (size) => {
    const form = new FormData();
    form.append("visibility", "restricted");
    form.append("allowedUserIds", "u1");
    form.append("allowedUserIds", "u2");
    const content = "line1\r\n--almost-a-boundary\r\nline3\r\n";
    form.append("file", new File([content], "a b.txt", { type: "text/plain" }));
    const { bytes, boundary } = await encode(form);
    const { fields, file } = await readMultipart(chunked(bytes, size), boundary);
    expect(fields).toEqual([
      ["visibility", "restricted"],
      ["allowedUserIds", "u1"],
      ["allowedUserIds", "u2"],
    ]);
    expect(file?.filename).toBe("a b.txt");
    expect(file?.contentType).toBe("text/plain");
    expect(await collect(file!.stream)).toBe(content);
  });

  it("returns no file when the form has none", async () => {
    const form = new FormData();
    form.append("visibility", "private");
    const { bytes, boundary } = await encode(form);
    expect((await readMultipart(chunked(bytes, 5), boundary)).file).toBeNull();
  });

  it("refuses a field after the file (the file must come last) and a truncated body", async () => {
    const form = new FormData();
    form.append("file", new File(["x"], "a.txt"));
    form.append("late", "1");
    const { bytes, boundary } = await encode(form);
    const { file } = await readMultipart(chunked(bytes, 8), boundary);
    await expect(collect(file!.stream)).rejects.toBeInstanceOf(MultipartError);
    const cut = await readMultipart(chunked(bytes.slice(0, bytes.length - 60), 8), boundary);
    await expect(collect(cut.file!.stream)).rejects.toBeInstanceOf(MultipartError);
  });

  it("reads the boundary from the Content-Type", () => {
    expect(boundaryOf("multipart/form-data; boundary=abc")).toBe("abc");
    expect(boundaryOf('multipart/form-data; boundary="a b"')).toBe("a b");
    expect(boundaryOf("application/json")).toBeNull();
  });
});
