/** The command's help text, and the error that stands for a wrong command line or setting (exit 3). */

export class UsageError extends Error {
  override name = 'UsageError';
}

export const helpText = `Usage: petstore-conformance [options] [-- playwright-options]
       petstore-conformance serve [--port N] [--base-path /api/v1]
       petstore-conformance compare <earlier conformance.json> <later conformance.json>
       petstore-conformance merge <folder of blob reports> [--report-dir <dir>]
       petstore-conformance baseline <conformance.json>
       petstore-conformance bundle [--report-dir <dir>]
       petstore-conformance verify <bundle.tar.gz>

Checks an implementation of the Pet Store Service Interface 1.0.0, requirement by requirement.
Without a target it checks the bundled reference implementation.

Options:
  --base-url <url>     the target's base address, ending in /v1 (BASE_URL)
  --read-only          only the checks that create nothing, for production (CONFORMANCE_READONLY)
  --report-dir <dir>   where the reports go (default: ./conformance-reports)
  --grep <pattern>     only the checks matching it, e.g. @LIST-LIMIT-DEFAULT for one requirement
  --targets <file>     a JSON file of several targets, checked in one run (CONFORMANCE_TARGETS)
  --baseline <file>    the failures the gate tolerates, each with a reason and an optional date
                       (CONFORMANCE_BASELINE): they still fail their requirement, but exit 0
  --share-workers      several targets checked by the run's workers, not a project each
                       (CONFORMANCE_SHARE_WORKERS)
  --shard <K/N>        this machine's part of a run split over N machines
  --workers <n>        parallel workers (CONFORMANCE_WORKERS)
  -h, --help           this text
  -v, --version        the suite's version
  -- <args>            anything after -- goes to Playwright (playwright test --help)

The API key comes from the environment (API_KEY) or from .env in the current folder, never from
the command line: a key there shows in process lists and CI logs. Every other setting is an
environment variable too (see docs/configuration.md); an option wins over the environment and .env.

Commands:
  serve                starts the bundled reference on 127.0.0.1 as a stand-in for client
                       developers; prints its URL and the key it made up for this start
  compare              what changed between two runs' conformance.json: newly failed, newly
                       passed, still failing; exits 1 only when something newly failed
  merge                the blob reports of a sharded run (each shard's <report dir>/blob/, the
                       same CONFORMANCE_RUN_ID on every machine) into the reports of one run
  baseline             prints the baseline a run's failures make (> baseline.json to start one)
  bundle               packs the last run's reports, with an in-toto statement of their digests,
                       into one .tar.gz in the report folder; prints its path
  verify               checks a bundle: every file matches its digest, and the run was complete;
                       prints the verdict. Exit 0 intact and complete, 1 a file changed, 2 a
                       partial run's bundle (--grep, a shard, read-only), 3 not a bundle

Exit codes:
  0  conformant: every requirement checked passed (those left out on purpose, by --read-only or
     --grep, are listed as not run); or every failure is one the baseline tolerates, in date
  1  not conformant: a requirement failed that the baseline does not tolerate (a new failure, or
     an expired entry); or a requirement the baseline lists passed (fixed: remove its entry)
  2  incomplete: the preflight stopped the run, a requirement was blocked or inconclusive, or the
     run was cut short
  3  a usage or configuration error: nothing was sent
`;
