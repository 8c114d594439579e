import { createContext } from "react-router";
import type { FileStorage } from "./storage";

/** The file storage of this process (created once by the Express app), for loaders and actions. */
export const storageContext = createContext<FileStorage>();
