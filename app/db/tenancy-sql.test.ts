import { describe, expect, it } from "vitest";
import { tenancyFindings } from "./tenancy-sql";

const TABLES = new Set(["cis_invoices", "cis_subcontractors", "files"]);
const tables = (sql: string) => tenancyFindings(sql, TABLES).map((f) => `${f.kind} ${f.table}`);

describe("tenancyFindings", () => {
  it("passes a select filtered by the table's tenant_id", () => {
    expect(tables(`select "id" from "cis_invoices" where ("cis_invoices"."tenant_id" = ? and "cis_invoices"."id" = ?)`)).toEqual([]);
  });

  it("flags a select by id alone, and one whose tenant_id is only in the projection", () => {
    expect(tables(`select "id" from "cis_invoices" where "cis_invoices"."id" = ?`)).toEqual(["select cis_invoices"]);
    expect(tables(`select "tenant_id", "id" from "cis_invoices" where "cis_invoices"."id" = ?`)).toEqual(["select cis_invoices"]);
  });

  it("asks every tenant table of a join for its own condition", () => {
    const joined = `select * from "cis_invoices" inner join "cis_subcontractors" on "cis_subcontractors"."id" = "cis_invoices"."subcontractor_id"`;
    expect(tables(`${joined} where "cis_invoices"."tenant_id" = ?`)).toEqual(["select cis_subcontractors"]);
    expect(tables(`${joined} and "cis_subcontractors"."tenant_id" = "cis_invoices"."tenant_id" where "cis_invoices"."tenant_id" = ?`)).toEqual([]);
  });

  it("reads aliases", () => {
    expect(tables(`select * from "files" "f" where "f"."tenant_id" = ?`)).toEqual([]);
    expect(tables(`select * from "files" as "f" where "f"."id" = ?`)).toEqual(["select files"]);
  });

  it("takes a bare tenant_id as the target's condition in UPDATE and DELETE", () => {
    expect(tables(`update "files" set "name" = ? where ("tenant_id" = ? and "id" = ?)`)).toEqual([]);
    expect(tables(`delete from "files" where "id" = ?`)).toEqual(["delete files"]);
    expect(tables(`update "files" set "tenant_id" = ? where "id" = ?`)).toEqual(["update files"]);
  });

  it("requires an INSERT to name the tenant_id column, and ignores ON CONFLICT", () => {
    expect(tables(`insert into "files" ("id", "tenant_id") values (?, ?) on conflict ("tenant_id", "id") do nothing`)).toEqual([]);
    expect(tables(`insert into "files" ("id", "name") values (?, ?) on conflict ("tenant_id", "id") do nothing`)).toEqual(["insert files"]);
  });

  it("ignores platform tables, comments and string literals", () => {
    expect(tables(`select * from "tenants" where "id" = ?`)).toEqual([]);
    expect(tables(`select * from "files" where "files"."name" = 'tenant_id' -- "files"."tenant_id"`)).toEqual(["select files"]);
  });
});

describe("tenancyFindings on sub-selects", () => {
  it("reads a bare tenant_id as the condition of its own sub-select", () => {
    const sql = `insert into "files" ("id", "tenant_id") SELECT ?, ? WHERE EXISTS (SELECT 1 FROM cis_invoices WHERE tenant_id = ? AND id = ?)`;
    expect(tables(sql)).toEqual([]);
    expect(
      tables(`select min("created_at"), (SELECT "x" FROM "cis_subcontractors" WHERE "tenant_id" = ?) from "cis_invoices" where "cis_invoices"."tenant_id" = ?`),
    ).toEqual([]);
  });

  it("does not lend an outer tenant_id to a sub-select, nor a sub-select's to the outer query", () => {
    expect(tables(`update "files" set "x" = ? where "tenant_id" = ? and EXISTS (SELECT 1 FROM cis_invoices WHERE id = ?)`)).toEqual(["update cis_invoices"]);
    expect(tables(`select * from cis_invoices where id = ? and x in (SELECT y FROM files WHERE tenant_id = ?)`)).toEqual(["select cis_invoices"]);
  });
});

describe("tenancyFindings on conditions that hold for every row", () => {
  it("does not take tenant_id compared with itself as a condition", () => {
    const sub = (cond: string) =>
      `select "id", (SELECT "display_name" FROM "files" WHERE "id" = "owner_id" AND ${cond}) from "cis_invoices" where "cis_invoices"."tenant_id" = ?`;
    expect(tables(sub(`"tenant_id" = "tenant_id"`))).toEqual(["select files"]);
    expect(tables(sub(`"files"."tenant_id" = "cis_invoices"."tenant_id"`))).toEqual([]);
  });
});
