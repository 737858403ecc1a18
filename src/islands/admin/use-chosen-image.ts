import { useCallback, useRef, useState } from "react";
import { prepareImage } from "./shrink-image.ts";
import { checkChosenImage } from "./upload-checks.ts";

/** An image field's choice: the file to send once it is scaled down, and what to tell the owner. */
export interface ChosenImage {
  /** The file to upload (scaled down); undefined while none is chosen, or while it is prepared. */
  file: File | undefined;
  /** "Resized 2.7 MB → 840 KB, …" */
  note: string | undefined;
  error: string | undefined;
  /** True while the chosen image is being scaled down: the form waits for it. */
  preparing: boolean;
  choose(file: File | undefined): void;
}

type State = Omit<ChosenImage, "choose">;
const nothing: State = { file: undefined, note: undefined, error: undefined, preparing: false };

/** Scales each chosen image down as soon as it is chosen, so the save sends the small one. */
export function useChosenImage(): ChosenImage {
  const [state, setState] = useState<State>(nothing);
  // A second choice made while the first is still being prepared wins.
  const latest = useRef(0);
  const choose = useCallback((file: File | undefined) => {
    const turn = ++latest.current;
    const refused = checkChosenImage(file);
    if (!file || refused) {
      setState({ ...nothing, error: refused });
      return;
    }
    setState({ ...nothing, preparing: true });
    void prepareImage(file).then((prepared) => {
      if (turn === latest.current) setState({ ...prepared, preparing: false });
    });
  }, []);
  return { ...state, choose };
}
