import { avellanedaStoikovModel } from './avellaneda-stoikov-model.js';
import { latencyAwareModel } from './latency-aware-model.js';
import type { QuotingModel } from './quoting-model.js';
import { spreadModel } from './spread-model.js';

/**
 * Every quoting model, by the name `strategy.*.model` selects it with. Adding a model touches two
 * files: one implementing {@link QuotingModel}, and its line here. The parameter table takes its
 * list of names from this record.
 */
export const QUOTING_MODELS = {
  spread: spreadModel,
  'avellaneda-stoikov': avellanedaStoikovModel,
  'latency-aware': latencyAwareModel,
} as const satisfies Readonly<Record<string, QuotingModel>>;

/** A quoting model's name. */
export type ModelName = keyof typeof QUOTING_MODELS;

/** The model names, in registry order (the first is the default). */
export const MODEL_NAMES = Object.keys(QUOTING_MODELS) as [ModelName, ...ModelName[]];

/** The model configured as `name`. */
export function quotingModel(name: ModelName): QuotingModel {
  return QUOTING_MODELS[name];
}
