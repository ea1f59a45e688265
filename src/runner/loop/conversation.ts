import { toolCallsOf, type AgentRun, type Step } from '../../core/agent-run.js';
import type { TurnResult } from '../../core/results-schema.js';
import type { AssertionContext } from '../../assertions/types.js';
import { recordedTrajectory } from '../../assertions/trajectory.js';
import type { PlannedCase } from '../../suite/plan.js';
import type { ChatTurn } from '../../core/chat-turn.js';
import { mediaOf, type InputPart, type MediaPart } from '../../core/content-parts.js';
import type { Target, TargetSession, TrialInput } from '../../targets/types.js';
import { historyBeforeFirstTurn } from '../../targets/session.js';
import { errorMessage, spentOf } from '../../core/errors.js';
import { unansweredCalls, usageOfRun, type Pricing } from '../../providers/run-usage.js';
import { withTimeout } from '../../core/timeout.js';
import { emptyUsage } from '../../core/usage.js';
import { shownParts } from '../../core/shown-parts.js';
import type { SimulatedUser } from '../../suite/simulated-user-schema.js';
import { simulatedMessages, type SimulatedUserTally, type UserModel } from '../users/index.js';

/** One user turn of a trial and what the target did in it. */
export interface TurnRecord {
  message: string;
  /** The message's content parts, when it was sent as parts. */
  parts?: readonly InputPart[];
  run: AgentRun;
  durationMs: number;
}

/**
 * The target side of one trial: a single `run`, or a session whose turns are the YAML `turns:`
 * and every `t.send()` of a TS check. The case timeout bounds each turn. The first failure ends
 * the conversation; `failure` then holds the trial error (naming the target).
 */
export class Conversation {
  readonly turns: TurnRecord[] = [];
  failure: string | undefined;
  #session: TargetSession | undefined;
  #partial: AgentRun | undefined;
  #failedMs = 0;
  readonly #c: PlannedCase;
  readonly #trial: TrialInput;
  readonly #target: Target;
  readonly #signal: AbortSignal;

  /** A simulated user's spend and how its conversation ended. */
  readonly simulated: SimulatedUserTally = { usage: emptyUsage() };
  readonly #userModel: UserModel | undefined;
  /** `simulatedUser.endOnFail`: whether a final assertion failed on the conversation so far (end-on-fail.ts). */
  readonly #detector: (() => Promise<boolean>) | undefined;

  constructor(c: PlannedCase, index: number, target: Target, signal: AbortSignal, userModel?: UserModel, detector?: () => Promise<boolean>) {
    this.#userModel = userModel;
    this.#detector = detector;
    this.#c = c;
    this.#trial = { suite: c.suite, id: c.id, trial: index, input: c.input, ...(c.parts ? { parts: c.parts } : {}), messages: c.messages };
    this.#target = target;
    this.#signal = signal;
  }

  /** Runs the case's own turns (its input, each of `turns:`, or a simulated user's messages). False when the target failed. */
  async begin(): Promise<boolean> {
    const c = this.#c;
    // Each user turn with its content parts, when it was given as parts.
    const messages = c.turns ? c.turns.map((t) => ({ text: t.input, parts: t.parts })) : [{ text: c.input, parts: c.parts }];
    // A TS check may send follow-ups, so it gets a session whenever the target has them.
    const wantsSession = c.turns !== undefined || c.check !== undefined || c.simulatedUser !== undefined;
    if (!this.#target.openSession || !wantsSession) {
      if (c.simulatedUser) return this.#noSessions('a simulated user holds a conversation');
      if (messages.length > 1) return this.#noSessions(`this case has ${messages.length} turns`);
      return this.#turn(c.input, (signal) => this.#target.run(this.#trial, signal));
    }
    const open = this.#target.openSession.bind(this.#target);
    const started = performance.now();
    try {
      this.#session = await withTimeout((signal) => open(this.#trial, signal), c.timeoutMs, this.#signal);
    } catch (err) {
      this.#failedMs = performance.now() - started;
      return this.#fail(err);
    }
    if (c.simulatedUser) return this.#simulate(c.simulatedUser);
    for (const message of messages) {
      if (
        !(await this.send(message.text, message.parts).then(
          () => true,
          () => false,
        ))
      )
        return false;
    }
    return true;
  }

  /** A simulated user's conversation: each message the user model writes is sent as a turn (runner/users/simulated-user.ts). */
  async #simulate(spec: SimulatedUser): Promise<boolean> {
    const model = this.#userModel;
    if (!model) return this.#userFailed(`simulated user: no user model (give "simulatedUser.model" or a judge)`);
    try {
      for await (const message of simulatedMessages(spec, model, () => this.transcript(), this.#signal, this.simulated)) {
        if (
          !(await this.send(message).then(
            () => true,
            () => false,
          ))
        )
          return false;
        // Before the user model is asked again: a turn that did what no later turn can undo ends it here.
        if (this.#detector && (await this.#detector())) {
          this.simulated.stopped = 'detector';
          break;
        }
      }
    } catch (err) {
      return this.#userFailed(errorMessage(err));
    }
    return true;
  }

  #userFailed(message: string): false {
    this.failure = message;
    return false;
  }

  /** One more user turn (`t.send`), with its parts when it has any; rejects with the trial error when the target fails. */
  async send(message: string, parts?: readonly InputPart[]): Promise<AgentRun> {
    if (this.failure) throw new Error(this.failure);
    const session = this.#session;
    if (!session) {
      this.#noSessions('t.send() continues the conversation');
      throw new Error(this.failure);
    }
    if (!(await this.#turn(message, (signal) => session.send(message, signal, parts), parts))) throw new Error(this.failure);
    return this.turns[this.turns.length - 1]!.run;
  }

  /** Ends the session; a target that fails to close it does not change the trial's verdict. */
  async close(): Promise<void> {
    const session = this.#session;
    this.#session = undefined;
    await session?.close().catch(() => {});
  }

  /** Target time of all turns (what `maxLatencyMs` on the whole case measures). */
  get durationMs(): number {
    return this.turns.reduce((s, t) => s + t.durationMs, this.#failedMs);
  }

  /** Whether the target did anything worth reporting (a turn, or steps before it failed). */
  get hasRun(): boolean {
    return this.turns.length > 0 || this.#partial !== undefined;
  }

  /**
   * Every turn as one run: steps in order, reply and stop reason of the last turn. Each turn's
   * usage becomes step usage carrying that turn's model, so every call keeps its own price.
   */
  run(): AgentRun {
    const runs = [...this.turns.map((t) => t.run), ...(this.#partial ? [this.#partial] : [])];
    if (runs.length === 1 && this.turns.length === 1) return runs[0]!;
    const last = this.turns[this.turns.length - 1]?.run;
    const model = runs.find((r) => r.model)?.model;
    const instructions = runs.find((r) => r.instructions !== undefined)?.instructions;
    // Every tool any turn offered; a tool's first definition stands for the trial.
    const offered = runs.filter((r) => r.toolDigests !== undefined);
    const toolDigests = offered.length ? Object.fromEntries(offered.flatMap((r) => Object.entries(r.toolDigests!)).reverse()) : undefined;
    return {
      reply: last?.reply ?? '',
      steps: runs.flatMap(pricedSteps),
      ...(model ? { model } : {}),
      ...(instructions !== undefined ? { instructions } : {}),
      ...(toolDigests ? { toolDigests } : {}),
      ...(last?.stopReason ? { stopReason: last.stopReason } : {}),
    };
  }

  /** The conversation as judges read it: the case's history, then each user turn and its reply. */
  transcript(): ChatTurn[] {
    return [
      ...historyBeforeFirstTurn(this.#trial),
      ...this.turns.flatMap((t): ChatTurn[] => [
        { role: 'user', content: t.message },
        { role: 'assistant', content: t.run.reply },
      ]),
    ];
  }

  /**
   * Each turn as the results keep it, when the trial is a conversation (more than one turn, or YAML
   * `turns:`). A turn a check sent as parts keeps them (as the case keeps its own turns' parts, once).
   */
  turnResults(pricing: Pricing): TurnResult[] | undefined {
    if (this.turns.length <= 1 && this.#c.turns === undefined && this.#c.simulatedUser === undefined) return undefined;
    return this.turns.map((t, k) => ({
      input: t.message,
      ...(t.parts && this.#sentByCheck(k) ? { parts: shownParts(t.parts) } : {}),
      reply: t.run.reply,
      toolCalls: toolCallsOf(t.run),
      usage: usageOfRun(t.run, pricing),
      durationMs: t.durationMs,
    }));
  }

  /** The images and files the check's `t.send()` sent, in order: a judge is shown them after the case's own. */
  sentMedia(): MediaPart[] {
    return this.turns.flatMap((t, k) => (this.#sentByCheck(k) ? mediaOf(t.parts) : []));
  }

  /** Whether turn `k` (0-based) was sent by the check, not by the case's input or its own turns. */
  #sentByCheck(k: number): boolean {
    return k >= (this.#c.turns?.length ?? 1);
  }

  /**
   * What the case's assertions read: the whole run so far, its time and usage, and in a conversation
   * each turn's run (so `noLeak` reads every reply, not only the last).
   */
  context(pricing: Pricing): AssertionContext {
    const run = this.run();
    const turns = this.turns.length > 1 ? { turns: this.turns.map((t) => t.run) } : {};
    return { reply: run.reply, run, ...turns, durationMs: this.durationMs, usage: usageOfRun(run, pricing), target: this.target };
  }

  /** What a turn's assertions read: that turn's reply, run, time and usage. */
  turnContext(turn: number, pricing: Pricing): AssertionContext {
    const t = this.turns[turn - 1]!;
    return { reply: t.run.reply, run: t.run, durationMs: t.durationMs, usage: usageOfRun(t.run, pricing), target: { ...this.#targetName(), recordedTrajectory: recordedTrajectory(t.run) } };
  }

  /**
   * The target, and whether any turn recorded a trajectory. Read off each turn's own run: the merged
   * run turns a turn's run-level usage into a step, which is no trajectory.
   */
  get target(): { name: string; recordedTrajectory: boolean; untracedHint?: string } {
    const runs = [...this.turns.map((t) => t.run), ...(this.#partial ? [this.#partial] : [])];
    return { ...this.#targetName(), recordedTrajectory: runs.some(recordedTrajectory) };
  }

  #targetName(): { name: string; untracedHint?: string } {
    const { name, untracedHint } = this.#target;
    return { name, ...(untracedHint !== undefined ? { untracedHint } : {}) };
  }

  async #turn(message: string, work: (signal: AbortSignal) => Promise<AgentRun>, parts?: readonly InputPart[]): Promise<boolean> {
    const started = performance.now();
    try {
      const run = await withTimeout(work, this.#c.timeoutMs, this.#signal);
      this.turns.push({ message, ...(parts ? { parts } : {}), run, durationMs: this.#target.recordedDurationMs?.(run) ?? performance.now() - started });
      return true;
    } catch (err) {
      this.#failedMs = performance.now() - started;
      return this.#fail(err);
    }
  }

  #noSessions(why: string): false {
    this.failure = `target ${this.#c.targetName}: cannot hold a conversation (${why}); multi-turn needs a function, model or HTTP target`;
    return false;
  }

  #fail(err: unknown): false {
    this.#partial = spentOf(err).run;
    const n = this.turns.length + 1;
    const where = n > 1 || (this.#c.turns?.length ?? 0) > 1 ? `turn ${n}: ` : '';
    const unanswered = this.#partial ? unansweredCalls(this.#partial) : 0;
    const note = unanswered > 0 ? ` (${unanswered} model call${unanswered === 1 ? ' was' : 's were'} still waiting for an answer: counted, tokens and cost unknown)` : '';
    this.failure = `target ${this.#c.targetName}: ${where}${errorMessage(err)}${note}`;
    return false;
  }
}

/** A turn's steps, with its run-level usage or model moved onto them so merging keeps prices. */
function pricedSteps(run: AgentRun): Step[] {
  const steps = run.steps ?? [];
  if (steps.some((s) => s.usage)) return steps.map((s) => (s.usage && !s.model && run.model ? { ...s, model: run.model } : s));
  return run.usage ? [...steps, { usage: run.usage, ...(run.model ? { model: run.model } : {}) }] : steps;
}
