import { StrictMode, startTransition } from "react";
import { hydrateRoot } from "react-dom/client";
import { HydratedRouter } from "react-router/dom";
import { documentNonce, NonceContext } from "./nonce";

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <NonceContext.Provider value={documentNonce(document)}>
        <HydratedRouter />
      </NonceContext.Provider>
    </StrictMode>,
  );
});
