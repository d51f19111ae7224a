// What a variant is: one named deviation from the clean service (or an unusual but conformant
// behaviour), applied by replacing or wrapping named steps of the Service record.
import type { RequirementId } from '../../../requirements/catalogue.ts';
import type { Service } from '../service.ts';
import type { ProbeTarget } from './probe.ts';

/** Server-level settings a variant may impose (they win over the defaults of startReference). */
export interface VariantSettings {
  /** The base path the service is announced at (handle.baseUrl) and, by default, lives under. */
  readonly basePath?: string;
  /** Where the routes really live, when that differs from the announced base path. */
  readonly mountPath?: string;
  /** Pets pre-seeded at start (startReference's seedPets option still wins). */
  readonly seedPets?: number;
  /** Delay before every request is handled. */
  readonly latencyMs?: number;
  /** The first id handed out. */
  readonly firstId?: bigint;
  /**
   * The HTTP layer takes header values holding control characters (NUL, VT, ESC: node's
   * insecureHTTPParser), as Python's http.server, Java's HttpServer and hand-written ones do;
   * node's own refuses the message with 400.
   */
  readonly lenientParser?: boolean;
}

export interface Variant {
  readonly name: string;
  /** fault: breaks exactly one requirement; conformant: unusual but within the interface. */
  readonly kind: 'fault' | 'conformant';
  /** The requirement ID (requirements/catalogue.json) a fault breaks; absent for conformant ones. */
  readonly breaks?: RequirementId;
  readonly description: string;
  /** Conformant variations only: the advisory requirements (HTTP-standard extras) it lacks. */
  readonly lacks?: readonly RequirementId[];
  /**
   * Conformant only from this date on (YYYY-MM-DD): before it, the behaviour breaks the document
   * (getPet gone before its announced removal). A run must take this date as today to pass it.
   */
  readonly conformantFrom?: string;
  readonly settings?: VariantSettings;
  /** Replaces or wraps steps of a freshly created service, before any request or seeding. */
  apply?(service: Service): void;
  /** Pets pre-seeded for the probe (none when absent, or the variant's own settings.seedPets). */
  readonly probeSeedPets?: number;
  /**
   * Shows that the variant does what its description says, against a reference running it
   * (started with probe.ts's KEY and probeSeedPets). Run by selftest/reference.test.ts.
   */
  readonly probe: (target: ProbeTarget) => Promise<void>;
}
