import { describe, expect, it } from "vitest";
import { appEnv, devToolsEnabled, isDevelopment, isLocalHost, requestEnvironment, secureCookies, sessionSecrets } from "./environment.server";

const local = { APP_ENV: "development", APP_DOMAIN: "localhost:5173" };
const req = (url: string) => new Request(url);

describe("environment", () => {
  it("reads only the exact development and test names; anything else is production", () => {
    expect(appEnv({ APP_ENV: "development" })).toBe("development");
    expect(appEnv({ APP_ENV: "test" })).toBe("test");
    for (const v of ["production", "", "staging", "Development", " development", undefined]) expect(appEnv({ APP_ENV: v as string })).toBe("production");
  });

  it("knows which hosts are local", () => {
    for (const h of ["localhost", "localhost:5173", "acme.localhost:8787", "127.0.0.1:8787", "[::1]:5173", "ACME.LOCALHOST"])
      expect(isLocalHost(h), h).toBe(true);
    for (const h of ["example.com", "localhost.example.com", "acme.example.com:443", "127.0.0.2", "evil-localhost", "", "10.0.0.1"])
      expect(isLocalHost(h), h).toBe(false);
  });

  it("needs the flag, a local APP_DOMAIN and a local request host for development", () => {
    expect(isDevelopment(local, req("http://acme.localhost:5173/"))).toBe(true);
    expect(isDevelopment(local)).toBe(true);
    expect(isDevelopment(local, req("https://acme.example.com/"))).toBe(false);
    expect(isDevelopment({ ...local, APP_DOMAIN: "example.com" })).toBe(false);
    expect(isDevelopment({ ...local, APP_DOMAIN: "example.com" }, req("http://localhost/"))).toBe(false);
    expect(isDevelopment({ ...local, APP_ENV: "test" }, req("http://localhost/"))).toBe(false);
    expect(secureCookies(local, req("https://acme.example.com/"))).toBe(true);
    expect(secureCookies(local, req("http://acme.localhost:5173/"))).toBe(false);
  });

  it("allows developer tools in development and tests on local hosts only", () => {
    expect(devToolsEnabled({ ...local, APP_ENV: "test" }, req("http://acme.localhost/"))).toBe(true);
    expect(devToolsEnabled({ ...local, APP_ENV: "test" })).toBe(true);
    expect(devToolsEnabled({ ...local, APP_ENV: "test" }, req("http://example.com/"))).toBe(false);
    expect(devToolsEnabled({ ...local, APP_ENV: "production" }, req("http://localhost/"))).toBe(false);
    expect(devToolsEnabled({ ...local, APP_ENV: "development", APP_DOMAIN: "example.com" })).toBe(false);
  });

  it("pins a development APP_ENV to production for a request to a real host", () => {
    expect(requestEnvironment(local, req("https://x.workers.dev/")).APP_ENV).toBe("production");
    expect(requestEnvironment(local, req("http://acme.localhost:5173/"))).toBe(local);
  });

  it("refuses to run without session secrets", () => {
    expect(() => sessionSecrets({ SESSION_SECRETS: " , " } as Env)).toThrow(/SESSION_SECRETS/);
    expect(sessionSecrets({ SESSION_SECRETS: "new, old" } as Env)).toEqual(["new", "old"]);
  });
});
