#!/usr/bin/env node
// Checks a Wagers audit export (GET /api/audit/bets/{id}/export) on its own, with Node.js and
// nothing else: recomputes every event's hash and names the first link that does not hold.
// Usage: node verify-export.mjs export.json   (exit 0 when intact, 1 when broken, 2 not an export
// or an export of no events, 3 when intact as far as it could check but some events' content
// could not be recomputed: personal data erased from them, see `redacted` below)
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

// JSON with keys sorted at every depth and no whitespace; keys holding undefined are left out.
function canonical(value) {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const keys = Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(',')}}`;
}

// SHA-256 over the event's id, type, data and metadata (less its own hash) and the previous hash.
// Metadata that is no object (edited into null) is hashed as it is, and no stored hash matches.
const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
function hashOf(event, previousHash) {
  const { hash: _own, ...metadata } = isObject(event.metadata) ? event.metadata : {};
  const content = canonical({
    id: event.id,
    type: event.type,
    data: event.data,
    metadata: isObject(event.metadata) ? metadata : event.metadata,
    previousHash,
  });
  return createHash('sha256').update(content, 'utf8').digest('hex');
}

const file = process.argv[2];
if (!file) {
  console.error('Usage: node verify-export.mjs export.json');
  process.exit(2);
}
// A file that is no export (an error page saved in its place, a signed-out download) exits 2, never
// 1: only a chain that does not hold is BROKEN.
let exported;
try {
  exported = JSON.parse(readFileSync(file, 'utf8'));
} catch (error) {
  console.error(`Cannot read ${file}: ${error.message}`);
  process.exit(2);
}
if (exported?.format !== 'wagers-audit-export/1' || !Array.isArray(exported.events)) {
  console.error(`${file} is not a Wagers audit export (format wagers-audit-export/1)`);
  process.exit(2);
}
// The product exports a bet's stream, which has at least its proposal: an export of nothing proves
// nothing, and is refused rather than reported intact.
if (exported.events.length === 0) {
  console.error(`${file} has no events: an export holds at least the bet's proposal`);
  process.exit(2);
}
const anchor = exported.anchor;
// An event that held personal data in clear (stored before it was sealed) whose person deleted
// their account comes marked `redacted`: those fields read {"erased": true}, so its hash cannot be
// recomputed here. The export gives its hash as stored, taken as given for the link to the next
// event; the event is named as not checked, which says nothing of an edit.
const notRecomputed = [];
let anchoredFrom = 0; // Before hash chains, the first event the anchor check still covers.
let previous = null;
for (const [index, event] of exported.events.entries()) {
  const where = `revision ${event.revision} (event ${event.id}, ${event.type})`;
  if (event.revision !== index) {
    console.log(
      `BROKEN at ${where}: expected revision ${index}; an event is missing or out of order`,
    );
    process.exit(1);
  }
  const given = event.redacted === undefined ? null : event.redacted?.hash;
  if (given !== null && typeof given !== 'string') {
    console.error(`${file} is not a Wagers audit export: ${where} is redacted without a hash`);
    process.exit(2);
  }
  const expected = given ?? hashOf(event, previous);
  const erased = given === null ? '' : `${[event.redacted.fields].flat().join(', ')} erased`;
  if (anchor && event.revision <= anchor.throughRevision) {
    // Written before hash chains: only the chain's end is on record, in the anchor. A hash given
    // for a redacted event stands for the events before it too.
    if (given !== null) {
      const before =
        event.revision > anchoredFrom
          ? `, and so are revisions ${anchoredFrom} to ${event.revision - 1} before it`
          : '';
      notRecomputed.push(`${where}: ${erased}; its hash taken as given${before}`);
      anchoredFrom = event.revision + 1;
    }
    if (event.revision === anchor.throughRevision && expected !== anchor.hash) {
      console.log(`BROKEN at ${where}: the events up to here do not match the anchored hash`);
      process.exit(1);
    }
  } else if (isObject(event.metadata) && event.metadata.hash === undefined) {
    // Written before hash chains, as `npm run audit -- verify` says, not edited: no anchor covers it.
    const why = anchor
      ? `it carries no hash, and comes after the revision its stream was anchored through`
      : 'it carries no hash and its stream was never anchored';
    console.log(`BROKEN at ${where}: ${why}`);
    process.exit(1);
  } else if (given !== null) {
    if (event.metadata.hash !== given) {
      console.log(`BROKEN at ${where}: the hash it carries is not the one given for its link`);
      process.exit(1);
    }
    notRecomputed.push(`${where}: ${erased}; its hash as stored taken as given`);
  } else if (!isObject(event.metadata) || event.metadata.hash !== expected) {
    console.log(`BROKEN at ${where}: its hash does not match its content and the previous hash`);
    process.exit(1);
  }
  previous = expected;
}
// The anchor records how far the stream went before hash chains: it must reach that far still.
if (anchor && exported.events.length <= anchor.throughRevision) {
  console.log(
    `BROKEN at revision ${exported.events.length}: the stream ends before revision ` +
      `${anchor.throughRevision}, which its anchor covers; its last events are missing`,
  );
  process.exit(1);
}
if (notRecomputed.length > 0) {
  console.log(
    `INCOMPLETE ${exported.streamId}: ${exported.events.length} events, chain intact where it ` +
      `could be recomputed, last hash ${previous}; not recomputed (personal data erased, not edited):`,
  );
  for (const line of notRecomputed) console.log(`  ${line}`);
  process.exit(3);
}
console.log(
  `OK ${exported.streamId}: ${exported.events.length} events, chain intact, last hash ${previous}`,
);
