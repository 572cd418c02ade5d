import { describe, expect, it } from "vitest";
import { routeError, routeErrorCode } from "./route-errors";

describe("routeErrorCode", () => {
  it("reads the code of a thrown routeError()", () => {
    expect(routeErrorCode(routeError("workspace_suspended", 403).data)).toBe("workspace_suspended");
    expect(routeErrorCode({ code: "workspace_not_found", extra: 1 })).toBe("workspace_not_found");
  });

  it("is null for anything that is not one of the codes", () => {
    for (const data of [null, undefined, "workspace_suspended", 403, [], {}, { code: "WORKSPACE_SUSPENDED" }, { code: "toString" }, { code: null }])
      expect(routeErrorCode(data)).toBeNull();
  });
});
