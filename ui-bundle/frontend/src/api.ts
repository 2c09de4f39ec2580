/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// The UI's only way out: RESTCONF (/rests) on the origin that served the page, with the AAA
// credentials the operator signed in with (HTTP basic, as every RESTCONF client uses them).
//
// Requests go with `credentials: 'omit'`: the Authorization header we set is still sent, but a
// 401 then reaches the page instead of making the browser pop its own password dialog (the Fetch
// standard prompts only for requests that include credentials), so the sign-in form can say
// "wrong user name or password" itself.

export type FailureKind = 'unauthorized' | 'unreachable' | 'http';

export class ApiError extends Error {
  constructor(readonly kind: FailureKind, readonly status: number, message: string) {
    super(message);
  }
}

export interface Credentials {
  readonly user: string;
  readonly password: string;
}

export type ConnectionListener = (ok: boolean, error?: ApiError) => void;

/** RESTCONF's error body: the first error-message, or the tag. */
function errorText(body: unknown, fallback: string): string {
  const errors = (body as { errors?: { error?: { 'error-message'?: string; 'error-tag'?: string }[] } })?.errors?.error;
  const e = Array.isArray(errors) ? errors[0] : undefined;
  return e?.['error-message'] ?? e?.['error-tag'] ?? fallback;
}

function basic(c: Credentials): string {
  // btoa takes Latin-1 only: encode UTF-8 first so any password works
  const bytes = new TextEncoder().encode(`${c.user}:${c.password}`);
  let bin = '';
  for (const b of bytes) {
    bin += String.fromCharCode(b);
  }
  return 'Basic ' + btoa(bin);
}

export interface RequestOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export class Restconf {
  private readonly listeners = new Set<ConnectionListener>();
  private lastOk = true;

  constructor(readonly base: string, private readonly credentials: Credentials) {}

  get user(): string {
    return this.credentials.user;
  }

  onConnection(l: ConnectionListener): () => void {
    this.listeners.add(l);
    return () => this.listeners.delete(l);
  }

  /** GET data; undefined when RESTCONF says there is none (404, or 409 data-missing). */
  async get(path: string, params: Record<string, string> = {}, opts: RequestOptions = {}): Promise<unknown> {
    const qs = new URLSearchParams(params).toString();
    return this.request('GET', `/data/${path}${qs ? '?' + qs : ''}`, undefined, opts, true);
  }

  async put(path: string, body: unknown): Promise<void> {
    await this.request('PUT', `/data/${path}`, body);
  }

  async patch(path: string, body: unknown): Promise<void> {
    await this.request('PATCH', `/data/${path}`, body);
  }

  async delete(path: string): Promise<void> {
    await this.request('DELETE', `/data/${path}`, undefined, {}, true);
  }

  /** An RPC: `module:name` with its input (without the "input" wrapper). */
  async rpc(name: string, input: Record<string, unknown>, opts: RequestOptions = {}): Promise<unknown> {
    return this.request('POST', `/operations/${name}`, { input }, opts);
  }

  private async request(method: string, path: string, body?: unknown, opts: RequestOptions = {},
      missingIsEmpty = false): Promise<unknown> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), opts.timeoutMs ?? 20000);
    const onAbort = () => timeout.abort();
    opts.signal?.addEventListener('abort', onAbort);
    let response: Response;
    try {
      response = await fetch(this.base + path, {
        method,
        credentials: 'omit',
        cache: 'no-store',
        headers: {
          Authorization: basic(this.credentials),
          Accept: 'application/yang-data+json',
          ...(body !== undefined ? { 'Content-Type': 'application/yang-data+json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
        signal: timeout.signal,
      });
    } catch (e) {
      if (opts.signal?.aborted) {
        throw e;
      }
      const err = new ApiError('unreachable', 0, timeout.signal.aborted
        ? 'The controller did not answer in time' : 'The controller cannot be reached');
      this.report(false, err);
      throw err;
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
    if (response.status === 401 || response.status === 403) {
      const err = new ApiError('unauthorized', response.status, response.status === 401
        ? 'Wrong user name or password' : 'This user may not do that');
      this.report(true);
      throw err;
    }
    // a proxy or Jetty without RESTCONF behind it: the controller is not really there
    if (response.status === 502 || response.status === 503 || response.status === 504) {
      const err = new ApiError('unreachable', response.status, `RESTCONF is not available (HTTP ${response.status})`);
      this.report(false, err);
      throw err;
    }
    this.report(true);
    const text = await response.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      if (missingIsEmpty && (response.status === 404 || response.status === 409)) {
        return undefined;
      }
      throw new ApiError('http', response.status, errorText(json, `HTTP ${response.status}`));
    }
    return json;
  }

  private report(ok: boolean, error?: ApiError): void {
    if (ok === this.lastOk && ok) {
      return;
    }
    this.lastOk = ok;
    for (const l of this.listeners) {
      l(ok, error);
    }
  }
}

/** A list entry's key in a RESTCONF URL (RFC 8040 §3.5.3: percent-encoded). */
export function key(value: string): string {
  return encodeURIComponent(value);
}
