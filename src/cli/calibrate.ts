import { isPanelRef } from '../judges/panel-spec.js';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { UserError } from '../core/errors.js';
import { providerList } from '../providers/registry.js';
import type { CalibrationCriterion } from '../judges/calibration-schema.js';
import { CALIBRATION_TYPES, calibrationTypeHelp, criteriaFieldOf, isRubricType, missingCriteriaMessage } from '../judges/calibration-types.js';
import { concurrency, fraction, timeoutMs } from './parse-number.js';
import { checkOutputs } from './output-check.js';
import type { PlannedOutput } from './reporters.js';
import { DEFAULT_LOAD_TIMEOUT_MS } from '../suite/import-module.js';
import { CONFIG_FILES_HELP } from '../config/defaults.js';

interface CalibrateFlags {
  config?: string;
  judge?: string;
  criteria?: string;
  type?: string;
  scale?: 1 | 10;
  threshold?: number;
  concurrency?: number;
  cache?: boolean;
  output?: string;
  loadTimeout?: number;
}

const scaleArg = (value: string): 1 | 10 => {
  if (value === '1' || value === '10') return Number(value) as 1 | 10;
  throw new InvalidArgumentError('expected 1 (scores 0..1) or 10 (scores 1..10)');
};

export function registerCalibrate(program: Command): void {
  program
    .command('calibrate')
    .description('judge a labelled set and measure how far the judge agrees with the humans (exit 0 done, 1 every judgment failed, 2 bad input)')
    .argument('<labels>', 'labelled rows: .jsonl, .csv or .yaml, each with output and humanScore and/or humanVerdict')
    .option('-c, --config <path>', `config file (default: ${CONFIG_FILES_HELP})`)
    .option('--judge <provider:model>', `the judge: provider:model (provider: ${providerList()}), fake, or a name from the config's judges (default: the config's judge)`)
    .option('--criteria <text>', 'the rubric to grade by (the question, with --type closedQa)')
    .option('--type <type>', calibrationTypeHelp(CALIBRATION_TYPES))
    .option('--scale <n>', 'the rubric scale, 1 (0..1, default) or 10 (1..10); human scores are on it', scaleArg)
    .option('--threshold <t>', "judge score (0..1) at which a row passes (default: the config's judgeThreshold)", fraction)
    .option('-j, --concurrency <n>', 'judgments in flight at once', concurrency)
    .option('--no-cache', 'make every judge call anew')
    .option('-o, --output <path>', 'where the JSON report goes (default <outputDir>/calibration.json)')
    .option('--load-timeout <ms>', `how long importing the config may take, in ms (default ${DEFAULT_LOAD_TIMEOUT_MS})`, timeoutMs)
    .action(async (labelsPath: string, flags: CalibrateFlags) => {
      const cwd = process.cwd();
      const [{ loadConfigFromFlags }, { resolveRunSettings }, { openRun }, { loadLabels }, { checkRows }, { calibrationText }, { writeAtomic }] = await Promise.all([
        import('./prepare.js'),
        import('../config/run-settings.js'),
        import('../runner/start-run.js'),
        import('../suite/labels.js'),
        import('../suite/label-rows-check.js'),
        import('./calibrate-text.js'),
        import('../report/atomic-write.js'),
      ]);
      const type = (flags.type ?? CALIBRATION_TYPES[0]) as CalibrationCriterion['type'];
      if (!CALIBRATION_TYPES.includes(type)) throw new UserError(`--type ${flags.type}: expected one of ${CALIBRATION_TYPES.join(', ')}`);
      const needsCriteria = criteriaFieldOf(type) !== undefined;
      if (needsCriteria && !flags.criteria?.trim()) throw new UserError(missingCriteriaMessage(type));
      if (!needsCriteria && flags.criteria !== undefined) throw new UserError(`--criteria does not apply to --type ${type}`);
      if (flags.scale === 10 && !isRubricType(type)) throw new UserError(`--scale applies to a rubric (--criteria); --type ${type} scores 0 or 1`);

      const config = await loadConfigFromFlags(flags, cwd);
      const settings = resolveRunSettings(
        config,
        { ...(flags.judge !== undefined ? { judge: flags.judge } : {}), ...(flags.concurrency !== undefined ? { concurrency: flags.concurrency } : {}), cache: flags.cache !== false },
        process.env,
      );
      const run = openRun(settings, [], 'calibrate');
      const judge = settings.judging.override ?? settings.judging.judge;
      if (judge === undefined) throw new UserError('no judge: pass --judge provider:model (or set `judge` in the config)');
      if (isPanelRef(judge))
        throw new UserError("calibrate measures one judge: the config's `judge` is a panel; pass --judge with one of its members", { file: config.file ?? undefined, field: 'judge' });

      const criterion: CalibrationCriterion = { type, ...(flags.criteria !== undefined ? { criteria: flags.criteria } : {}), scale: flags.scale ?? 1 };
      const display = isAbsolute(labelsPath) ? labelsPath : relative(cwd, resolve(cwd, labelsPath)) || labelsPath;
      const labels = await loadLabels(resolve(cwd, labelsPath), display);
      for (const line of labels.unlabelled) process.stderr.write(`agent-evals: warning: ${display}:${line}: no humanScore or humanVerdict; row skipped\n`);
      if (labels.rows.length === 0) {
        const skipped = labels.unlabelled.length;
        throw new UserError(
          skipped
            ? `no usable row: ${skipped === 1 ? 'the row' : `all ${skipped} rows`} (line${skipped === 1 ? '' : 's'} ${labels.unlabelled.join(', ')}) lack humanScore and humanVerdict`
            : 'no rows',
          { file: display },
        );
      }
      checkRows(labels, criterion);
      const output = flags.output !== undefined ? resolve(cwd, flags.output) : join(config.outputDir, 'calibration.json');
      const outputs: PlannedOutput[] = [{ path: output, kind: 'file', field: flags.output !== undefined ? '--output' : 'outputDir' }];
      if (settings.judging.cache) outputs.push({ path: join(config.outputDir, 'cache'), kind: 'dir', field: 'outputDir' });
      await checkOutputs(outputs, config.file);

      const { redactor } = run;
      const warn = (message: string) => void process.stderr.write(`agent-evals: warning: ${redactor.redact(message)}\n`);
      const result = await run.calibrate({ judge, criterion, threshold: flags.threshold ?? config.judgeThreshold, labels, warn });
      const shown = relative(cwd, output) || output;
      // A judge's reason may quote a secret it was shown: nothing leaves unredacted.
      process.stdout.write(redactor.redact(calibrationText(result, shown)));
      await writeAtomic(output, async (write) => write(redactor.redact(JSON.stringify(result, null, 2)) + '\n'));
      if (result.judged === 0) {
        process.stderr.write(`agent-evals: every judgment failed (first: ${redactor.redact(result.results[0]?.error ?? 'unknown')})\n`);
        process.exitCode = 1;
      }
    });
}
