/**
 * Names: the suite's own, and what the document lets a target do with others.
 *
 * Every name the suite makes for itself carries the run's marker (staging owners find its pets by
 * it) and fits in 32 UTF-8 bytes (CONFORMANCE_NAME_MAX_BYTES), so that a target with a small name
 * column takes it: a target that refuses such an ordinary short name fails (CREATE-201-PET). Any
 * other name (spaces, markup, Unicode, long ones) may be refused with 400 under the service's own
 * rules, never altered.
 */
import { nameMaxBytes, petNamePrefix, settings } from '../setup/settings.ts';

/**
 * The longest name, in UTF-8 bytes, that a target must take (the suite's own are no longer): 32,
 * a small name column's size, or CONFORMANCE_NAME_MAX_BYTES for a target whose names are shorter.
 */
export const ownNameBytes = nameMaxBytes;

/** Own names made by this process so far. */
let made = 0;

/**
 * The labelled name of one of the suite's pets: the run's marker, then the label, cut to fit in
 * ownNameBytes with a tail that no other name of the run has (a long run id leaves less room;
 * the marker is what makes a pet findable). Unique, since a target may refuse a name it holds
 * already, a rule of its own that the document leaves open: the tail is the shard, the worker
 * (Playwright's TEST_WORKER_INDEX, unique in a run) and a count.
 */
export function ownName(label: string): string {
  const tail = `-${uniqueTail()}`;
  let name = `${petNamePrefix}${label}`;
  while (Buffer.byteLength(name + tail) > ownNameBytes) name = name.slice(0, -1);
  return name + tail;
}

/** What makes a name of the run unique: the shard, the worker and a count, in [a-z0-9-]. */
function uniqueTail(): string {
  const shard = settings.shard.total > 1 ? `${settings.shard.current}-` : '';
  return `${shard}${process.env.TEST_WORKER_INDEX ?? 'p'}-${(made++).toString(36)}`;
}

/**
 * A generated name made unique in the run: the run's marker in it followed by a tail no other name
 * of the run has (a generator may draw a name twice, and a target may refuse a name it holds).
 */
export function uniqueInRun(name: string): string {
  return name.replace(petNamePrefix, `${petNamePrefix}${uniqueTail()}:`);
}

/** A name the suite makes for itself: the run's marker, a plain label, at most ownNameBytes. */
export function isOwnName(name: string): boolean {
  return (
    name.startsWith(petNamePrefix) &&
    /^[a-z0-9-]*$/.test(name.slice(petNamePrefix.length)) &&
    Buffer.byteLength(name) <= ownNameBytes
  );
}

/**
 * Whether the document leaves it open to refuse this valid name with 400: any name but the
 * suite's own. It says nothing of size limits, nor of what makes a name an invalid value (§4.2:
 * 400 for "invalid values"), so a service may refuse names under rules of its own: a size (a name
 * longer than the suite's own ownNameBytes), characters (control, format or surrogate
 * characters, whitespace at either end, markup, quotes), a minimum length (the empty name).
 * Never alter one: a name taken comes back exactly as sent. The suite's own names, its marker and
 * a plain label, are the ones every target must take: without them no create could be checked.
 */
export function nameMayBeRefused(name: string): boolean {
  return !isOwnName(name);
}
