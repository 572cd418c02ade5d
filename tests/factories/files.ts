import { exports } from "cloudflare:workers";
import type { Role } from "~/db/schema";
import { signIn } from "../integration/auth-helpers";
import type { Browser } from "../integration/http";
import { createTenant, createUser, type TestTenant } from "./index";
import { mintKey, pageKeys, SUBMISSION_KEY_FIELD } from "./submission-keys";

/** A tenant with the Files module (unless given) and a signed-in member of the given role. */
export async function filesStaff(role: Role = "lead", opts: { tenant?: TestTenant; bundles?: Partial<Record<Role, string[]>> } = {}) {
  const t = opts.tenant ?? (await createTenant({ modules: ["files"], bundles: opts.bundles }));
  const u = await createUser(t, { role });
  const b = await signIn(t, u);
  return { t, u, b };
}

export type UploadFields = Record<string, string | string[]>;

/** The multipart body a browser sends for the upload form, fields first and the file last, with its Content-Length. */
export async function multipartBody(file: { name: string; type?: string; content: string | Uint8Array<ArrayBuffer> } | null, fields: UploadFields = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) for (const item of Array.isArray(v) ? v : [v]) form.append(k, item);
  if (file) form.append("file", new File([file.content], file.name, { type: file.type ?? "application/octet-stream" }));
  const res = new Response(form);
  const body = new Uint8Array(await res.arrayBuffer());
  return { body, contentType: res.headers.get("Content-Type") ?? "" };
}

/** Posts the upload form (no JavaScript: /files/upload) or the script's request (/files/upload/xhr). */
export async function upload(
  b: Browser,
  t: TestTenant,
  file: { name: string; type?: string; content: string | Uint8Array<ArrayBuffer> } | null,
  fields: UploadFields = {},
  opts: { xhr?: boolean } = {},
): Promise<Response> {
  const { body, contentType } = await multipartBody(file, fields);
  const path = opts.xhr ? "/files/upload/xhr" : "/files/upload";
  return exports.default.fetch(
    new Request(`${t.origin}${path}`, {
      method: "POST",
      body,
      redirect: "manual",
      headers: { Origin: t.origin, Cookie: b.cookieHeader(t.host), "Content-Type": contentType, "Content-Length": String(body.length) },
    }),
  );
}

/** Uploads through the script's endpoint and returns the new file's id. */
export async function uploadOk(
  b: Browser,
  t: TestTenant,
  name: string,
  content: string | Uint8Array<ArrayBuffer> = "hello",
  fields: UploadFields = {},
  type = "text/plain",
): Promise<string> {
  const res = await upload(b, t, { name, content, type }, fields, { xhr: true });
  const json: { ok: boolean; fileId?: string; message?: string } = await res.json();
  if (!json.ok || !json.fileId) throw new Error(`upload failed: ${res.status} ${json.message}`);
  return json.fileId;
}

/** The one-time submission key scope of a file's Request Signature form. */
export const signatureRequestAction = (fileId: string) => `files.signature.request:${fileId}`;

/**
 * Posts a file's Request Signature form as its page would: with the submission key the page
 * renders, or (when the page shows no form: a pending or signed file, another tenant's) one
 * minted for `user`.
 */
export async function askToSign(b: Browser, t: TestTenant, fileId: string, signerId: string, user?: { id: string }): Promise<Response> {
  const key = user
    ? await mintKey(t, user, signatureRequestAction(fileId))
    : (await pageKeys(b, `${t.origin}/files/file/${fileId}`, 'form[action="/files/signatures/request"]'))[0];
  return b.post(`${t.origin}/files/signatures/request`, { fileId, signerId, ...(key ? { [SUBMISSION_KEY_FIELD]: key } : {}) });
}
