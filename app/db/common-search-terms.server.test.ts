import { beforeEach, describe, expect, it } from "vitest";
import { COMMON_TERM_TTL_MS, COMMON_TERMS_KEPT, commonTermNotes, forgetCommonTerms, knownCommonTerm, noteCommonTerm } from "./common-search-terms.server";

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);

describe("common search terms", () => {
  beforeEach(() => forgetCommonTerms());

  it("knows a noted term for its index and tenant only, until the note expires", () => {
    expect(knownCommonTerm("invoices", "tnt_a", "roofing", T0)).toBe(false);
    noteCommonTerm("invoices", "tnt_a", "roofing", T0);
    expect(knownCommonTerm("invoices", "tnt_a", "roofing", T0 + 1)).toBe(true);
    expect(knownCommonTerm("invoices", "tnt_a", "roofing", T0 + COMMON_TERM_TTL_MS - 1)).toBe(true);
    // Another tenant, another index, another term: not known.
    expect(knownCommonTerm("invoices", "tnt_b", "roofing", T0 + 1)).toBe(false);
    expect(knownCommonTerm("subcontractors", "tnt_a", "roofing", T0 + 1)).toBe(false);
    expect(knownCommonTerm("invoices", "tnt_a", "roofin", T0 + 1)).toBe(false);
    // Keys cannot run into each other through the separator.
    expect(knownCommonTerm("invoices\u0000tnt_a", "", "roofing", T0 + 1)).toBe(false);
    // Expired: forgotten, and dropped from the store.
    expect(knownCommonTerm("invoices", "tnt_a", "roofing", T0 + COMMON_TERM_TTL_MS)).toBe(false);
    expect(commonTermNotes()).toBe(0);
  });

  it("noting a term again starts its time again", () => {
    noteCommonTerm("invoices", "tnt_a", "ltd", T0);
    noteCommonTerm("invoices", "tnt_a", "ltd", T0 + COMMON_TERM_TTL_MS - 10);
    expect(knownCommonTerm("invoices", "tnt_a", "ltd", T0 + COMMON_TERM_TTL_MS + 10)).toBe(true);
    expect(commonTermNotes()).toBe(1);
  });

  it("keeps at most COMMON_TERMS_KEPT notes, and never a very long term", () => {
    for (let i = 0; i < COMMON_TERMS_KEPT; i++) noteCommonTerm("invoices", "tnt_a", `term ${i}`, T0);
    expect(commonTermNotes()).toBe(COMMON_TERMS_KEPT);
    // A term already noted replaces its note without emptying the store.
    noteCommonTerm("invoices", "tnt_a", "term 7", T0);
    expect(commonTermNotes()).toBe(COMMON_TERMS_KEPT);
    // A new one when full starts the store again.
    noteCommonTerm("invoices", "tnt_a", "one more", T0);
    expect(commonTermNotes()).toBe(1);
    expect(knownCommonTerm("invoices", "tnt_a", "one more", T0)).toBe(true);
    expect(knownCommonTerm("invoices", "tnt_a", "term 7", T0)).toBe(false);
    const long = "x".repeat(101);
    noteCommonTerm("invoices", "tnt_a", long, T0);
    expect(knownCommonTerm("invoices", "tnt_a", long, T0)).toBe(false);
    expect(commonTermNotes()).toBe(1);
  });
});
