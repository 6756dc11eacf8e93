import type { AuditHead, AuditLink } from "../../src/audit/chain.js";
import { type AuditEngine, type AuditQuery, sameHead } from "../../src/audit/engine.js";

/**
 * The trail in this process's memory, for tests (test/support: no part of the app uses it); nothing outlives the process. Each
 * team's head is kept apart from its links, as on every engine.
 */
export function memoryAuditEngine(): AuditEngine & { links(team: string): AuditLink[] } {
  const chains = new Map<string, AuditLink[]>();
  const heads = new Map<string, AuditHead>();
  const chain = (team: string) => chains.get(team) ?? [];
  const headOf = (team: string): AuditHead | undefined => {
    const head = heads.get(team);
    return head && { ...head };
  };
  const append = (link: AuditLink, expected: AuditHead | undefined, throughSeq = 0): boolean => {
    if (!sameHead(headOf(link.team), expected) || link.seq !== (expected?.seq ?? 0) + 1) return false;
    chains.set(link.team, [...chain(link.team).filter((kept) => kept.seq > throughSeq), { ...link }]);
    heads.set(link.team, { seq: link.seq, hash: link.hash, at: link.at });
    return true;
  };
  const matches = (link: AuditLink, query: AuditQuery) =>
    link.seq < (query.beforeSeq ?? Number.POSITIVE_INFINITY) &&
    link.at >= (query.from ?? Number.NEGATIVE_INFINITY) &&
    link.at < (query.to ?? Number.POSITIVE_INFINITY) &&
    (query.actor === undefined || link.actor === query.actor) &&
    (query.action === undefined || link.action === query.action);
  return {
    async head(team) {
      return headOf(team);
    },
    async append(link, expected) {
      return append(link, expected);
    },
    async removeThrough(throughSeq, link, expected) {
      return append(link, expected, throughSeq);
    },
    async walk(team, afterSeq, limit) {
      return chain(team)
        .filter((link) => link.seq > afterSeq)
        .slice(0, limit)
        .map((link) => ({ ...link }));
    },
    async page(team, query) {
      return chain(team)
        .filter((link) => matches(link, query))
        .reverse()
        .slice(0, query.limit)
        .map((link) => ({ ...link }));
    },
    async prefixBefore(team, before) {
      const links = chain(team);
      const keptFrom = links.findIndex((link) => link.at >= before);
      const [first, last] = [links[0], links[(keptFrom < 0 ? links.length : keptFrom) - 1]];
      return first && last ? { first: { ...first }, last: { ...last } } : undefined;
    },
    async teams() {
      return [...heads.keys()];
    },
    /** The team's links as kept, for tests that alter them as someone with the store could. */
    links: (team) => chain(team),
  };
}
