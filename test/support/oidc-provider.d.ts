// oidc-provider ships no types and @types/oidc-provider is not installed: the part of its
// API the test authorization server (authorization-server.ts) uses, as documented upstream.
declare module 'oidc-provider' {
  type IncomingMessage = import('node:http').IncomingMessage;
  type ServerResponse = import('node:http').ServerResponse;

  export interface AdapterPayload {
    [key: string]: unknown;
    uid?: string;
    grantId?: string;
    userCode?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    grant_types?: string[];
    response_types?: string[];
    redirect_uris?: string[];
    token_endpoint_auth_method?: string;
    application_type?: 'web' | 'native';
    scope?: string;
    [key: string]: unknown;
  }

  export interface ResourceServer {
    scope: string;
    audience?: string | string[];
    accessTokenTTL?: number;
    accessTokenFormat?: 'opaque' | 'jwt';
    jwt?: { sign?: { alg: string } };
  }

  export interface Client {
    clientId: string;
  }

  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: {
      name: string;
      details: {
        missingOIDCScope?: string[];
        missingOIDCClaims?: string[];
        missingResourceScopes?: Record<string, string[]>;
      };
    };
    params: Record<string, unknown> & { client_id: string };
    session?: { accountId: string };
    grantId?: string;
  }

  export interface Configuration {
    [key: string]: unknown;
    adapter?: new (name: string) => Adapter;
    clients?: ClientMetadata[];
    jwks?: { keys: Array<Record<string, unknown>> };
    findAccount?: (
      ctx: unknown,
      id: string,
    ) => Promise<{ accountId: string; claims(): Promise<Record<string, unknown>> }>;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    readonly Grant: {
      new (properties: { accountId: string; clientId: string }): Grant;
      find(id: string): Promise<Grant | undefined>;
    };
    on(event: string, listener: (...args: any[]) => void): this;
  }

  export const errors: { InvalidTarget: new (description?: string) => Error };

  export default Provider;
}
