import { RouterContextProvider } from "react-router";
import type { Auth } from "../auth/auth";
import type { SessionUser } from "../auth/session";
import {
  authContext,
  clientIpContext,
  cspNonceContext,
  dbContext,
  envContext,
  requestIdContext,
  sessionContext,
  userContext,
} from "../context";
import type { Database } from "../db/client";
import type { Env } from "../env";
import { certificatesContext, type Certificates } from "../certificates";
import { financeContext, type Finance } from "../finance/setup";
import { paymentsContext, type Payments } from "../payments/setup";
import { storageContext } from "../storage/context";
import type { FileStorage } from "../storage/storage";

/** What a process builds once and every request shares. */
export interface RouterServices {
  db: Database;
  env: Env;
  auth: Auth;
  storage?: FileStorage;
  payments?: Payments;
  certificates?: Certificates;
  finance?: Finance;
}

/** What belongs to one request. */
export interface RequestFacts {
  clientIp?: string;
  requestId?: string;
  cspNonce?: string;
  /** The session the Express app resolved (null: anonymous; undefined: look it up from the cookie). */
  session?: Promise<SessionUser | null> | null;
  /** Tests only: a user already signed in, as the guard middleware would have set it. */
  user?: SessionUser;
}

/**
 * The router context of one request: built here for the Express app (getLoadContext) and for the
 * tests that call loaders and actions, so that both see the same contexts.
 */
export function createRouterContext(services: RouterServices, request: RequestFacts = {}): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(dbContext, services.db);
  context.set(envContext, services.env);
  context.set(authContext, services.auth);
  if (services.storage) context.set(storageContext, services.storage);
  if (services.payments) context.set(paymentsContext, services.payments);
  if (services.certificates) context.set(certificatesContext, services.certificates);
  if (services.finance) context.set(financeContext, services.finance);
  context.set(clientIpContext, request.clientIp ?? "unknown");
  if (request.requestId !== undefined) context.set(requestIdContext, request.requestId);
  if (request.cspNonce !== undefined) context.set(cspNonceContext, request.cspNonce);
  if (request.session !== undefined) context.set(sessionContext, request.session);
  if (request.user) context.set(userContext, request.user);
  return context;
}
