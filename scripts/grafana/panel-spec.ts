/**
 * One panel of the ledger-mm dashboard as a row of a table (the rows/*.ts files), and its
 * translation into a Grafana panel with @grafana/grafana-foundation-sdk. Every panel gets the
 * `${datasource}` Prometheus data source on itself and on each query, a unit, a description and
 * thresholds; stat panels query instantly, the others over the time range.
 */
import type * as cog from '@grafana/grafana-foundation-sdk/cog';
import * as common from '@grafana/grafana-foundation-sdk/common';
import * as dashboard from '@grafana/grafana-foundation-sdk/dashboard';
import * as prometheus from '@grafana/grafana-foundation-sdk/prometheus';
import * as stat from '@grafana/grafana-foundation-sdk/stat';
import * as statetimeline from '@grafana/grafana-foundation-sdk/statetimeline';
import * as timeseries from '@grafana/grafana-foundation-sdk/timeseries';

/** The data source every panel and query uses: the dashboard's `datasource` variable. */
export const DATASOURCE = { type: 'prometheus', uid: '${datasource}' } as const;

/** A threshold step: a colour from a value on (null: the base step). */
export type Step = readonly [color: string, value: number | null];

export interface PanelSpec {
  readonly kind: 'timeseries' | 'stat' | 'timeline';
  readonly title: string;
  readonly description: string;
  /** A Grafana unit id: `s`, `percentunit`, `bytes`, `reqps`, `short`, `suffix: bps`, ... */
  readonly unit: string;
  /** Width of 24 columns, and height (8 unless given). */
  readonly w: number;
  readonly h?: number;
  readonly decimals?: number;
  readonly min?: number;
  readonly max?: number;
  /** The base step, then where the value needs a look (every panel but a `levelOnly` one). */
  readonly thresholds: readonly Step[];
  /** Why no bound applies (a price, a balance, a volume): the panel has the base step only. */
  readonly levelOnly?: string;
  /** Draw the thresholds on a time series (where they are an alert's or a contract's bound). */
  readonly showThresholds?: boolean;
  /** Value → [text, colour] of a stat or a state timeline. */
  readonly mappings?: Readonly<Record<number, readonly [string, string]>>;
  readonly overrides?: readonly {
    matcher: { id: string; options: string };
    properties: { id: string; value: unknown }[];
  }[];
  readonly stack?: boolean;
  readonly colorMode?: 'background' | 'value' | 'none';
  readonly textMode?: 'name' | 'value' | 'value_and_name';
  /** [legend, PromQL] per query, refIds A, B, C... in this order. */
  readonly targets: readonly (readonly [legend: string, expr: string])[];
}

function query(refId: string, legend: string, expr: string, instant: boolean): prometheus.DataqueryBuilder {
  const q = new prometheus.DataqueryBuilder()
    .datasource(DATASOURCE)
    .refId(refId)
    .expr(expr)
    .legendFormat(legend)
    .editorMode(prometheus.QueryEditorMode.Code);
  return instant ? q.instant() : q.range();
}

function thresholds(steps: readonly Step[]): dashboard.ThresholdsConfigBuilder {
  return new dashboard.ThresholdsConfigBuilder()
    .mode(dashboard.ThresholdsMode.Absolute)
    .steps(steps.map(([color, value]) => ({ color, value })));
}

function valueMappings(m: PanelSpec['mappings']): dashboard.ValueMapping[] {
  if (m === undefined) return [];
  const options: Record<string, { text: string; color: string; index: number }> = {};
  Object.entries(m).forEach(([value, [text, color]], index) => (options[value] = { text, color, index }));
  return [{ type: dashboard.MappingType.ValueToText, options }];
}

type AnyPanelBuilder = timeseries.PanelBuilder | stat.PanelBuilder | statetimeline.PanelBuilder;

function common_<B extends AnyPanelBuilder>(b: B, spec: PanelSpec, id: number, instant: boolean): B {
  b.id(id)
    .title(spec.title)
    .description(spec.description)
    .datasource(DATASOURCE)
    .unit(spec.unit)
    .span(spec.w)
    .height(spec.h ?? 8)
    .thresholds(thresholds(spec.thresholds))
    .targets(
      spec.targets.map(([legend, expr], i) => query(String.fromCharCode(65 + i), legend, expr, instant)),
    );
  if (spec.decimals !== undefined) b.decimals(spec.decimals);
  if (spec.min !== undefined) b.min(spec.min);
  if (spec.max !== undefined) b.max(spec.max);
  if (spec.mappings !== undefined) b.mappings(valueMappings(spec.mappings));
  for (const o of spec.overrides ?? []) {
    b.withOverride({ matcher: o.matcher, properties: o.properties });
  }
  return b;
}

/** The SDK builder of a panel spec. */
export function panelOf(spec: PanelSpec, id: number): cog.Builder<dashboard.Panel> {
  switch (spec.kind) {
    case 'stat': {
      const b = new stat.PanelBuilder()
        .reduceOptions(new common.ReduceDataOptionsBuilder().calcs(['lastNotNull']).fields('').values(false))
        .colorMode((spec.colorMode ?? 'value') as common.BigValueColorMode)
        .graphMode(common.BigValueGraphMode.None)
        .textMode((spec.textMode ?? 'value_and_name') as common.BigValueTextMode);
      return common_(b, spec, id, true);
    }
    case 'timeline': {
      const b = new statetimeline.PanelBuilder().showValue(common.VisibilityMode.Auto).mergeValues(true);
      return common_(b, spec, id, false);
    }
    case 'timeseries': {
      const b = new timeseries.PanelBuilder()
        .lineWidth(1)
        .fillOpacity(spec.stack === true ? 30 : 10)
        .showPoints(common.VisibilityMode.Never)
        .spanNulls(false)
        .legend(
          new common.VizLegendOptionsBuilder()
            .showLegend(true)
            .displayMode(common.LegendDisplayMode.List)
            .placement(common.LegendPlacement.Bottom),
        )
        .tooltip(
          new common.VizTooltipOptionsBuilder()
            .mode(common.TooltipDisplayMode.Multi)
            .sort(common.SortOrder.Descending),
        )
        .thresholdsStyle(
          new common.GraphThresholdsStyleConfigBuilder().mode(
            spec.showThresholds === true
              ? common.GraphThresholdsStyleMode.Line
              : common.GraphThresholdsStyleMode.Off,
          ),
        );
      if (spec.stack === true) {
        b.stacking(new common.StackingConfigBuilder().mode(common.StackingMode.Normal).group('A'));
      }
      return common_(b, spec, id, false);
    }
  }
}
