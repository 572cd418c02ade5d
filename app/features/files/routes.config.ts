import { type RouteConfigEntry, index, layout, prefix, route } from "@react-router/dev/routes";

/** Files and e-signature (signatures/), under /files. Assembled by app/routes.ts. */
export const filesRoutes: RouteConfigEntry[] = [
  ...prefix("files", [
    route("upload/xhr", "features/files/routes/upload-xhr.tsx"),
    route("export", "features/files/routes/export.tsx"),
    route("upload/multipart", "features/files/routes/upload-multipart.tsx"),
    route("upload/multipart/:uploadId", "features/files/routes/upload-multipart-item.tsx"),
    route("file/:id/download", "features/files/routes/file-content.tsx", { id: "files-download" }),
    route("file/:id/content", "features/files/routes/file-content.tsx", { id: "files-content" }),
    // E-signature (app/features/files/signatures): the request form's target and the review document.
    route("signatures/request", "features/files/signatures/routes/request.tsx"),
    route("signatures/:id/document", "features/files/signatures/routes/document.tsx"),
    layout("features/files/routes/layout.tsx", [
      index("features/files/routes/index.tsx"),
      route("overview", "features/files/routes/overview.tsx"),
      route("all", "features/files/routes/all.tsx"),
      route("folders", "features/files/routes/folders.tsx", { id: "files-folders-root" }),
      route("folders/*", "features/files/routes/folders.tsx", { id: "files-folders-path" }),
      route("upload", "features/files/routes/upload.tsx"),
      route("file/:id", "features/files/routes/file.tsx"),
      // E-signature pages, inside the files layout.
      route("signatures", "features/files/signatures/routes/list.tsx"),
      route("signatures/:id", "features/files/signatures/routes/sign.tsx"),
    ]),
  ]),
];
