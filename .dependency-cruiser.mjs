// Feature boundaries (ADR 0049), checked by `npm run lint` through scripts/boundaries.mjs.
// A feature is a folder app/features/<name>/. Its public surface is index.ts (shared code and
// types, client and server) and index.server.ts (server code); every other file in it is private.
const SURFACE = "^app/features/[^/]+/index(\\.server)?\\.tsx?$";

/**
 * Registration files: public to the composition roots only (app/routes.ts assembles the route
 * fragments, app/scopes.ts the scope registrations, app/jobs.server.ts the jobs and cron tasks).
 * They go straight to these files because app/routes.ts is also read by the route-config loader,
 * which must not load a whole feature.
 */
const REGISTRATION = "^app/features/[^/]+/(routes\\.config|register\\.server|domain/scopes)\\.ts$";
const COMPOSITION_ROOTS = "^app/(routes|scopes|jobs\\.server)\\.ts$";

/**
 * Features in layers, lowest first: a feature imports only features of lower layers, so features
 * can form no cycle. A new feature goes in the lowest layer above everything it imports.
 */
const LAYERS = [
  ["platform"],
  ["auth"],
  // Files lends its attachable files to the calendar and chat, so it sits below them.
  ["files"],
  ["marketing", "tenant-settings", "workspace", "chat", "schedule"],
  ["cis"],
  ["portal", "team"],
  ["superadmin"],
];

/**
 * Exceptions to "feature-layers", each with its reason. Keep this list short. There are none:
 * the signed-in person's own pages (welcome, notifications, audit log) are the `workspace`
 * feature, above auth, so platform imports nothing above it.
 */
const LAYER_EXCEPTIONS = [];

const below = (feature) =>
  LAYERS.slice(
    0,
    LAYERS.findIndex((l) => l.includes(feature)),
  ).flat();
const layerRules = LAYERS.flat().map((feature) => ({
  name: "feature-layers",
  severity: "error",
  comment: `${feature} may import only ${below(feature).join(", ") || "no other feature"} (features in layers: ${LAYERS.map((l) => l.join("/")).join(" < ")}).`,
  from: { path: `^app/features/${feature}/`, pathNot: LAYER_EXCEPTIONS },
  to: { path: "^app/features/[^/]+/", pathNot: [`^app/features/(${[feature, ...below(feature)].join("|")})/`] },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: "feature-private",
      severity: "error",
      comment: "A feature imports another feature only through its surface: ~/features/<name> or ~/features/<name>/index.server.",
      from: { path: "^app/features/([^/]+)/" },
      to: { path: "^app/features/[^/]+/", pathNot: ["^app/features/$1/", SURFACE] },
    },
    {
      name: "feature-private-from-app",
      severity: "error",
      comment: "Code outside the features (root, middleware, jobs, db, workers) imports a feature only through its surface.",
      from: { path: "^(app|workers)/", pathNot: ["^app/features/", COMPOSITION_ROOTS] },
      // Exception: the seed's dynamic import() of single CIS modules. The seed also runs under Node
      // (scripts/seed.ts), where the CIS server surface cannot load (it reaches cloudflare:workers
      // through the return lock); import() there loads just the module it names.
      to: { path: "^app/features/[^/]+/", pathNot: SURFACE, dependencyTypesNot: ["dynamic-import"] },
    },
    {
      name: "feature-private-from-app",
      severity: "error",
      comment: "The composition roots import a feature through its surface or its registration files (see REGISTRATION).",
      from: { path: COMPOSITION_ROOTS },
      to: { path: "^app/features/[^/]+/", pathNot: [SURFACE, REGISTRATION] },
    },
    {
      name: "feature-private-from-app",
      severity: "error",
      comment: "Only app/db/seed.ts may import() a feature's module directly (see the exception above).",
      from: { path: "^(app|workers)/", pathNot: ["^app/features/", "^app/db/seed\\.ts$"] },
      to: { path: "^app/features/[^/]+/", pathNot: SURFACE, dependencyTypes: ["dynamic-import"] },
    },
    {
      name: "schema-knows-no-feature",
      severity: "error",
      comment: "The schema takes its constants from app/db/enums.ts, never from a feature (a feature depends on the schema, not the reverse).",
      from: { path: "^app/db/(schema/|client|enums|instrument|insert-where)" },
      to: { path: "^app/features/" },
    },
    ...layerRules,
    {
      name: "no-circular",
      severity: "error",
      comment: "An import cycle (type-only imports included): break it by moving the shared piece down a layer or passing it in.",
      from: { path: "^(app|workers)/" },
      to: { circular: true },
    },
  ],
  options: {
    // Tests exercise private modules on purpose; generated route types live outside the tree.
    exclude: { path: ["\\.test\\.tsx?$", "\\.test-support\\.ts$", "^node_modules/", "^\\.react-router/"] },
    doNotFollow: { path: ["node_modules"] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
      extensions: [".ts", ".tsx", ".js", ".mjs"],
    },
  },
};
