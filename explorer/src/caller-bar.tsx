import { useState } from 'preact/hooks';
import { tokenLabels, type SavedCallers } from './caller-store.js';

/**
 * Who calls: a pasted bearer token, a sign-in through the server's authorization server, the
 * callers used before (switching reconnects), and the language sent as Accept-Language.
 */
export function CallerBar(props: {
  callers: SavedCallers;
  locales: string[];
  canSignIn: boolean;
  signingIn: boolean;
  onUse(token: string | undefined): void;
  onForget(token: string): void;
  onLocale(locale: string | undefined): void;
  onSignIn(): void;
}) {
  const { callers } = props;
  const [draft, setDraft] = useState('');
  const use = (event: Event) => {
    event.preventDefault();
    const token = draft.trim().replace(/^Bearer\s+/i, '');
    if (!token) return;
    setDraft('');
    props.onUse(token);
  };
  const labels = tokenLabels(callers);
  const signedIn = !!callers.current && callers.current === callers.signedIn;
  return (
    <div class="caller-bar">
      <div class="field">
        <label for="caller">Caller</label>
        <select
          id="caller"
          value={callers.current ?? ''}
          onChange={(event) => props.onUse(event.currentTarget.value || undefined)}
        >
          <option value="">Anonymous</option>
          {callers.tokens.map((token, index) => (
            <option key={token} value={token}>
              {labels[index]}
            </option>
          ))}
        </select>
      </div>
      <form class="token-form" onSubmit={use}>
        <div class="field">
          <label for="bearer-token">Bearer token</label>
          <input
            id="bearer-token"
            type="text"
            autoComplete="off"
            spellcheck={false}
            value={draft}
            placeholder="Paste a token"
            onInput={(event) => setDraft(event.currentTarget.value)}
          />
        </div>
        <button type="submit">Use token</button>
        <button
          type="button"
          disabled={!callers.current}
          onClick={() => callers.current && props.onForget(callers.current)}
        >
          Forget token
        </button>
      </form>
      {props.canSignIn && (
        <div class="sign-in">
          {signedIn && <span class="signed-in">Signed in</span>}
          <button type="button" disabled={props.signingIn} onClick={props.onSignIn}>
            Sign in
          </button>
        </div>
      )}
      {props.locales.length > 0 && (
        <div class="field">
          <label for="language">Language</label>
          <select
            id="language"
            value={callers.locale ?? ''}
            onChange={(event) => props.onLocale(event.currentTarget.value || undefined)}
          >
            <option value="">Server default</option>
            {props.locales.map((locale) => (
              <option key={locale} value={locale}>
                {locale}
              </option>
            ))}
          </select>
        </div>
      )}
    </div>
  );
}
