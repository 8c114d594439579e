/** Every element under `root` matching `selector`, as an array. */
export const all = <T extends Element>(selector: string, root: ParentNode = document) => [...root.querySelectorAll<T>(selector)];
