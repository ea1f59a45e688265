import type { Reporter } from './reporter.js';

/**
 * What every reporter is built from: the public part (`ReporterOptions`, all a user's reporter
 * module gets) and what only the built-in ones use.
 */
export interface ReporterOptions {
  /** The file it writes, absolute: `=path` resolved against the working directory, else its default; undefined when none. */
  readonly path: string | undefined;
  /** Whether `path` came from `=path` (not from a default). */
  readonly pathGiven: boolean;
  /** The directory the run was started in. */
  readonly cwd: string;
  /** The run's output folder (config `outputDir`), absolute. */
  readonly outputDir: string;
  /** The agent-evals version. */
  readonly version: string;
  /** `--verbose`. */
  readonly verbose: boolean;
}

export interface BuiltInReporterOptions extends ReporterOptions {
  /** Streamed run folders kept (config `keepRuns`). */
  readonly keepRuns?: number;
  /** `--save-baseline`: the JSON reporter writes its document here too. */
  readonly saveBaseline?: string;
  /** `--baseline`: the baseline file, resolved (the HTML report shows its moved cases). */
  readonly baselineFile?: string;
}

/** What a built-in reporter's module exports; loaded only when the reporter is chosen. */
export interface ReporterModuleExports {
  create(options: BuiltInReporterOptions): Reporter;
}

/**
 * One reporter kind: everything the CLI, the config check and the docs say about it comes from here
 * (its help line, `--reporter` validation, the file it writes by default).
 */
export interface ReporterDescriptor {
  /** Its `--reporter` name. */
  readonly name: string;
  /** One line for the help and the reference docs. */
  readonly summary: string;
  /** It writes a file (`name=path`); absent: it prints only, and `=path` is refused. */
  readonly file?: {
    /** Its file when given no `=path`, in the output folder. */
    readonly default?: string;
    /** Else the environment variable naming its file (none set: it writes no file). */
    readonly defaultFromEnv?: string;
  };
  /** It streams cases into the output folder, which must then be writable. */
  readonly usesOutputDir?: boolean;
  /**
   * It writes the results document (what `--resume`, `--last-failed`, `--save-baseline` and a
   * re-judge read): `--json` names it, and a run that asked for none adds it. One reporter has it.
   */
  readonly results?: true;
  /** Its module, imported only when chosen: start-up stays cheap. */
  load(): Promise<ReporterModuleExports>;
}
