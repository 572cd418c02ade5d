import { exports } from "cloudflare:workers";

/** A tiny browser: keeps cookies per host and sends the Origin a real form post would carry. */
export class Browser {
  private jar = new Map<string, Map<string, string>>();

  cookieHeader(host: string): string {
    return [...(this.jar.get(host) ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  cookie(host: string, name: string): string | undefined {
    return this.jar.get(host)?.get(name);
  }

  setCookie(host: string, name: string, value: string) {
    const m = this.jar.get(host) ?? new Map<string, string>();
    m.set(name, value);
    this.jar.set(host, m);
  }

  private store(host: string, res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const idx = pair.indexOf("=");
      const name = pair.slice(0, idx).trim();
      const value = pair.slice(idx + 1).trim();
      const m = this.jar.get(host) ?? new Map<string, string>();
      const expired = attrs.some((a) => /max-age=0\b/i.test(a.trim()) || /expires=Thu, 01 Jan 1970/i.test(a.trim()));
      if (expired || value === "") m.delete(name);
      else m.set(name, value);
      this.jar.set(host, m);
    }
  }

  async get(url: string, init: RequestInit = {}): Promise<Response> {
    const u = new URL(url);
    const headers = new Headers(init.headers);
    const c = this.cookieHeader(u.host);
    if (c) headers.set("Cookie", c);
    const res = await exports.default.fetch(new Request(url, { ...init, headers, redirect: "manual" }));
    this.store(u.host, res);
    return res;
  }

  /**
   * A form post as a browser sends it: same-origin Origin header unless told otherwise. `fetch`
   * answers it instead of the Worker's own entry point (queue-helpers' postRecordingJobs).
   */
  async post(
    url: string,
    form: Record<string, string | string[]> | FormData,
    opts: { origin?: string | null; headers?: Record<string, string>; fetch?: (request: Request) => Promise<Response> } = {},
  ): Promise<Response> {
    const u = new URL(url);
    const body = form instanceof FormData ? form : toForm(form);
    const headers = new Headers(opts.headers);
    if (opts.origin !== null) headers.set("Origin", opts.origin ?? u.origin);
    const c = this.cookieHeader(u.host);
    if (c) headers.set("Cookie", c);
    const request = new Request(url, { method: "POST", body, headers, redirect: "manual" });
    const res = await (opts.fetch ? opts.fetch(request) : exports.default.fetch(request));
    this.store(u.host, res);
    return res;
  }

  /** Follows redirects on GET, like a browser after a post. */
  async follow(res: Response, base: string, max = 5): Promise<Response> {
    let current = res;
    let url = base;
    for (let i = 0; i < max && current.status >= 300 && current.status < 400; i++) {
      const loc = current.headers.get("Location");
      if (!loc) break;
      url = new URL(loc, url).toString();
      current = await this.get(url);
    }
    return current;
  }
}

export function toForm(data: Record<string, string | string[]>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(data)) for (const item of Array.isArray(v) ? v : [v]) f.append(k, item);
  return f;
}

export function location(res: Response): string | null {
  return res.headers.get("Location");
}
