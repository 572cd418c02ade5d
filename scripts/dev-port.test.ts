import { describe, expect, it } from "vitest";
import { devAppDomain, devPort } from "./dev-port.mjs";

describe("devPort", () => {
  it("is 5173 when neither PORT nor --port is given", () => {
    expect(devPort({ env: {}, argv: [] })).toBe(5173);
    expect(devPort({ env: { PORT: "" }, argv: ["--host"] })).toBe(5173);
  });

  it("follows PORT", () => {
    expect(devPort({ env: { PORT: "5181" }, argv: [] })).toBe(5181);
  });

  it("follows --port N and --port=N, which beat PORT", () => {
    expect(devPort({ env: {}, argv: ["--port", "5181"] })).toBe(5181);
    expect(devPort({ env: { PORT: "6000" }, argv: ["--port=5182"] })).toBe(5182);
    expect(devPort({ env: { PORT: "6000" }, argv: ["--force", "--port", "5183"] })).toBe(5183);
  });

  it("refuses a value that is not a port, naming where it came from", () => {
    expect(() => devPort({ env: { PORT: "abc" }, argv: [] })).toThrow(/PORT must be a port number/);
    expect(() => devPort({ env: {}, argv: ["--port", "70000"] })).toThrow(/--port must be a port number/);
    expect(() => devPort({ env: {}, argv: ["--port"] })).toThrow(/--port/);
    expect(() => devPort({ env: { PORT: "0" }, argv: [] })).toThrow(/PORT/);
  });
});

describe("devAppDomain", () => {
  it("is localhost with the port, so tenant URLs follow the server", () => {
    expect(devAppDomain(5181)).toBe("localhost:5181");
  });
});
