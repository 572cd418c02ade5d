export type Decision =
  { kind: "dbFor"; tenant: string; where: string } | { kind: "globalDb"; where: string } | { kind: "left"; where?: string; reason: string };
export declare function convertSource(fileName: string, text: string): { text: string; report: Decision[] };
