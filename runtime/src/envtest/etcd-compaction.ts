/**
 * Compacting etcd's history, for tests of what a watch does when its resourceVersion is gone (410):
 * through etcd's JSON gateway, up to the current revision. Test support: not exported from the
 * envtest entry point.
 */
export async function compactEtcd(etcdURL: string): Promise<void> {
  const range = await fetch(`${etcdURL}/v3/kv/range`, {
    method: "POST",
    body: JSON.stringify({ key: Buffer.from("/").toString("base64") }),
  });
  const revision = ((await range.json()) as { header: { revision: string } }).header.revision;
  const res = await fetch(`${etcdURL}/v3/kv/compaction`, {
    method: "POST",
    body: JSON.stringify({ revision, physical: true }),
  });
  if (!res.ok) throw new Error(`etcd compaction failed: ${res.status} ${await res.text()}`);
}
