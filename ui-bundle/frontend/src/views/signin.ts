/*
 * Copyright (c) 2026 RST developers. All rights reserved.
 *
 * This program and the accompanying materials are made available under the
 * terms of the Eclipse Public License v1.0 which accompanies this distribution,
 * and is available at http://www.eclipse.org/legal/epl-v10.html
 */

// Sign-in with the controller's AAA credentials, the ones RESTCONF takes. The form checks them
// with one small RESTCONF read and says which of the two usual failures it was: refused
// credentials, or no controller answering.

import { ApiError, Restconf, type Credentials } from '../api';
import { h } from '../dom';

export class SignInView {
  readonly el: HTMLElement;
  private readonly user: HTMLInputElement;
  private readonly password: HTMLInputElement;
  private readonly message: HTMLElement;
  private readonly submit: HTMLButtonElement;

  constructor(private readonly base: string, private readonly done: (c: Credentials) => void, notice?: string) {
    this.user = h('input', { id: 'user', name: 'user', autocomplete: 'username', required: true, value: 'admin', spellcheck: 'false' });
    this.password = h('input', { id: 'password', name: 'password', type: 'password', autocomplete: 'current-password', required: true });
    this.message = h('p', { class: 'error', role: 'alert', id: 'signin-error', hidden: !notice }, notice ?? '');
    this.submit = h('button', { type: 'submit', class: 'btn primary', id: 'sign-in' }, 'Sign in');
    this.el = h('main', { class: 'signin' },
      h('form', { class: 'panel signin-form', 'aria-labelledby': 'signin-h', onsubmit: (e: Event) => {
        e.preventDefault();
        void this.check();
      } },
        h('h1', { id: 'signin-h' }, 'RST'),
        h('p', { class: 'muted' }, 'RDMA Session Tracer. Sign in with the controller\'s credentials (the ones RESTCONF takes).'),
        h('label', { for: 'user' }, 'User'), this.user,
        h('label', { for: 'password' }, 'Password'), this.password,
        this.message,
        this.submit));
  }

  focus(): void {
    (this.user.value ? this.password : this.user).focus();
  }

  private async check(): Promise<void> {
    const creds = { user: this.user.value.trim(), password: this.password.value };
    this.submit.disabled = true;
    this.message.hidden = true;
    try {
      // any small read will do: AAA answers before RESTCONF looks for data
      await new Restconf(this.base, creds).get('rdma-flow-table:rft', { content: 'config', depth: '1' }, { timeoutMs: 10000 });
      this.done(creds);
    } catch (e) {
      const err = e instanceof ApiError ? e : undefined;
      this.message.textContent = err?.kind === 'unauthorized'
        ? 'Wrong user name or password: the controller refused them.'
        : err?.kind === 'unreachable'
          ? `The controller cannot be reached (${err.message}).`
          : `Signing in failed: ${(e as Error).message}`;
      this.message.dataset.kind = err?.kind ?? 'other';
      this.message.hidden = false;
      this.password.select();
      this.password.focus();
    } finally {
      this.submit.disabled = false;
    }
  }
}
