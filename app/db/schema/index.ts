export * from "./platform";
export * from "./jobs";
export * from "./email";
export * from "./auth";
export * from "./cis";
export * from "./cis-returns";
export * from "./hmrc";
export * from "./files";
