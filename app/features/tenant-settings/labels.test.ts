import { describe, expect, it } from "vitest";
import { lookFromForm } from "./labels";

const good = { accentColor: " #1D4ED8 ", radius: "1rem", appearance: "dark", fontFamily: "Lora", address: "1 High Street" };

describe("the branding preview's reading of the form", () => {
  it("gives the look the fields describe, the colour trimmed", () => {
    expect(lookFromForm(good)).toEqual({ accentColor: "#1D4ED8", radius: "1rem", appearance: "dark", fontFamily: "Lora" });
  });

  it("gives nothing while any field is not a value the server accepts, so the preview keeps the last good look", () => {
    for (const bad of [
      { accentColor: "#12345G" },
      { accentColor: "1D4ED8" },
      { accentColor: undefined },
      { radius: "2rem" },
      { appearance: "sepia" },
      { fontFamily: "Comic Sans" },
    ]) {
      expect(lookFromForm({ ...good, ...bad }), JSON.stringify(bad)).toBeNull();
    }
  });
});
