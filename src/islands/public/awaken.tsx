/** The React half of the island loader, fetched with the first island that wakes. */
import { useEffect, type ComponentType, type ReactNode } from "react";
import { hydrateRoot } from "react-dom/client";

/** Renders its children and says once when they are committed, i.e. answer to input. */
export function Awake({ onAwake, children }: { onAwake: () => void; children: ReactNode }) {
  useEffect(() => {
    onAwake();
  }, [onAwake]);
  return children;
}

/** Hydrates the server-rendered `element` as `Component`; resolves once its handlers are live. */
export function hydrateIsland<Props extends object>(element: HTMLElement, Component: ComponentType<Props>, props: Props): Promise<void> {
  return new Promise((resolve) => {
    hydrateRoot(
      element,
      <Awake onAwake={resolve}>
        <Component {...props} />
      </Awake>,
    );
  });
}
