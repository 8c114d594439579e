import { createContext } from "react-router";
import { getInstitute } from "../catalogue";
import type { Database } from "../db/client";
import type { certificates } from "../db/schema";
import type { IssuerIdentity } from "./credential";

export type Certificate = typeof certificates.$inferSelect;

/** What the certificates capability needs besides the database: built once per process. */
export interface Certificates {
  publicUrl: string;
  /** The application secret: the signing key is stored encrypted with a key derived from it. */
  secret: string;
}

export const certificatesContext = createContext<Certificates>();

export async function issuerIdentity(db: Database, publicUrl: string): Promise<IssuerIdentity> {
  const institute = await getInstitute(db);
  return { name: institute.name, email: institute.email, address: institute.address, url: publicUrl };
}
