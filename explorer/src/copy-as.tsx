import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { Action } from './explorer-session.js';
import type { RecordedRequest } from './recording-fetch.js';
import {
  clientConfigOf,
  CLIENTS,
  curlOf,
  testOf,
  type ClientKind,
  type ServerTarget,
} from './snippets.js';

function Snippet(props: {
  button: string;
  region: string;
  text: string;
  children?: ComponentChildren;
}) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // No clipboard (an http page, a refused permission): the text is there to select.
    }
  };
  return (
    <section aria-label={props.region} class="snippet">
      <div class="snippet-head">
        <button type="button" onClick={() => void copy()}>
          {props.button}
        </button>
        {props.children}
        <span class="muted" aria-live="polite">
          {copied ? 'Copied' : ''}
        </span>
      </div>
      <pre tabIndex={0} class="mono">
        {props.text}
      </pre>
    </section>
  );
}

/** The last request as curl, this server as a client's configuration, the last action as a test. */
export function CopyAs(props: {
  request?: RecordedRequest;
  action?: Action;
  target: ServerTarget & { several: boolean };
}) {
  const [show, setShow] = useState(false);
  const [client, setClient] = useState<ClientKind>('Claude Code');
  return (
    <section aria-labelledby="copy-as-heading" class="copy-as">
      <h2 id="copy-as-heading">Copy as</h2>
      <div class="field field-checkbox">
        <input
          id="show-token"
          type="checkbox"
          checked={show}
          onChange={(event) => setShow(event.currentTarget.checked)}
        />
        <label for="show-token">Show token</label>
      </div>
      <Snippet
        button="Copy as curl"
        region="curl"
        text={curlOf(props.request, props.target.token, show)}
      />
      <Snippet
        button="Copy client configuration"
        region="client configuration"
        text={clientConfigOf(client, props.target, show)}
      >
        <label for="client-kind">Client</label>
        <select
          id="client-kind"
          value={client}
          onChange={(event) => setClient(event.currentTarget.value as ClientKind)}
        >
          {CLIENTS.map((kind) => (
            <option key={kind} value={kind}>
              {kind}
            </option>
          ))}
        </select>
      </Snippet>
      <Snippet button="Copy test" region="test" text={testOf(props.action, props.target, show)} />
    </section>
  );
}
