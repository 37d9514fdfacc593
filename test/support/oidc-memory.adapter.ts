import type { Adapter, AdapterPayload } from 'oidc-provider';

/** oidc-provider's storage, in memory and per server (its own in-memory adapter warns). */
export function memoryAdapter(): new (name: string) => Adapter {
  const store = new Map<string, AdapterPayload>();
  const expiry = new Map<string, number>();
  const live = (key: string) => {
    const until = expiry.get(key);
    if (until !== undefined && until < Date.now()) {
      store.delete(key);
      expiry.delete(key);
    }
    return store.get(key);
  };
  return class MemoryAdapter implements Adapter {
    constructor(private readonly name: string) {}

    private key(id: string) {
      return `${this.name}:${id}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number) {
      store.set(this.key(id), payload);
      if (expiresIn) expiry.set(this.key(id), Date.now() + expiresIn * 1000);
    }
    async find(id: string) {
      return live(this.key(id));
    }
    async findByUid(uid: string) {
      return this.findWhere((payload) => payload.uid === uid);
    }
    async findByUserCode(userCode: string) {
      return this.findWhere((payload) => payload.userCode === userCode);
    }
    async consume(id: string) {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, payload] of store) if (payload.grantId === grantId) store.delete(key);
    }

    private findWhere(match: (payload: AdapterPayload) => boolean) {
      for (const key of store.keys())
        if (key.startsWith(`${this.name}:`)) {
          const payload = live(key);
          if (payload && match(payload)) return payload;
        }
      return undefined;
    }
  };
}
