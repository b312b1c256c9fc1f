package text

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/text/rouge"
)

// Ids of the ROUGE metrics: the parameterised one and Vertex AI's fixed
// aliases.
const (
	MetricRouge     = "rouge"
	MetricRouge1    = "rouge_1"
	MetricRouge2    = "rouge_2"
	MetricRougeL    = "rouge_l"
	MetricRougeLSum = "rouge_l_sum"
)

// Parameters of the rouge metric.
const (
	// ParamRougeType is rouge1 … rouge9, rougeL or rougeLsum (default rougeL).
	ParamRougeType = "rouge_type"
	// ParamUseStemmer stems tokens longer than three characters (default false).
	ParamUseStemmer = "use_stemmer"
	// ParamSplitSummaries splits rougeLsum text into sentences instead of
	// lines (default false).
	ParamSplitSummaries = "split_summaries"
	defaultRougeType    = "rougeL"
)

// rougeMetric is Vertex AI's rouge family, computed exactly as
// rouge-score 0.1.2's RougeScorer.score(reference, response) (package
// rouge).
//
// Formula: the F-measure 2PR/(P+R) of the chosen type: rougeN from
// clipped n-gram overlap (P = overlap/#response n-grams, R =
// overlap/#reference n-grams), rougeL from the LCS of the token lists,
// rougeLsum from the summary-level union LCS over newline-separated
// sentences (or split sentences with split_summaries). Tokens are
// lowercase [a-z0-9] runs; any other character separates.
//
// Vertex computes ROUGE server-side and does not document whether the
// score is P, R or F; F is returned (as ADK and rouge-score users
// expect), and precision and recall are in Details ("precision",
// "recall", "rouge_type"). Vertex's Rouge class requires a rouge_type and
// the server default of a bare RougeSpec is undocumented: this metric
// defaults to rougeL. The fixed ids rouge_1, rouge_2, rouge_l and
// rouge_l_sum are Vertex's RougeSpec(rouge_type=…) with use_stemmer and
// split_summaries false, and take no parameters.
//
// Edge cases: an empty side scores 0, as does a side with fewer than n
// tokens for rougeN (two identical one-word texts have rouge2 = 0).
type rougeMetric struct {
	name   string
	scorer *rouge.Scorer
	typ    any // the type's name for Details, boxed once
}

// newRougeMetric returns the metric named name scoring with s.
func newRougeMetric(name string, s *rouge.Scorer) *rougeMetric {
	return &rougeMetric{name: name, scorer: s, typ: string(s.Type())}
}

// newRouge builds the parameterised rouge metric.
func newRouge(params map[string]any) (scorer.Metric, error) {
	p := scorer.Params(params)
	if err := p.CheckKnown(ParamRougeType, ParamSplitSummaries, ParamUseStemmer); err != nil {
		return nil, err
	}
	typ, err := p.String(ParamRougeType, defaultRougeType)
	if err != nil {
		return nil, err
	}
	stem, err := p.Bool(ParamUseStemmer, false)
	if err != nil {
		return nil, err
	}
	split, err := p.Bool(ParamSplitSummaries, false)
	if err != nil {
		return nil, err
	}
	s, err := rouge.NewScorer(typ, rouge.Options{UseStemmer: stem, SplitSummaries: split})
	if err != nil {
		return nil, fmt.Errorf("param %q: %w", ParamRougeType, err)
	}
	return newRougeMetric(MetricRouge, s), nil
}

// fixedRouge is the factory of a Vertex fixed ROUGE id.
func fixedRouge(name, typ string) scorer.Factory {
	return func(params map[string]any) (scorer.Metric, error) {
		if err := scorer.Params(params).CheckKnown(); err != nil {
			return nil, err
		}
		s, err := rouge.NewScorer(typ, rouge.Options{})
		if err != nil {
			return nil, err
		}
		return newRougeMetric(name, s), nil
	}
}

// Name returns the metric id.
func (m *rougeMetric) Name() string { return m.name }

// Inline marks the metric as one that never blocks (scorer.Inline).
func (m *rougeMetric) Inline() {}

// Needs requires the response and the reference.
func (m *rougeMetric) Needs() scorer.Inputs { return scorer.InResponse | scorer.InReference }

// Score returns the F-measure. LCS costs grow with the product of the
// lengths, so the metric runs under the engine's deadline and checks it
// before starting.
func (m *rougeMetric) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	if err := ctx.Err(); err != nil {
		return scorer.Result{}, err
	}
	s := rougeScore(in, m.scorer, in.Reference, in.Response)
	return scorer.Result{
		Metric: m.name,
		Score:  s.FMeasure,
		Details: map[string]any{
			"precision":  s.Precision,
			"recall":     s.Recall,
			"rouge_type": m.typ,
		},
	}, nil
}

// rougeKey names a ROUGE score of one instance's texts; the metrics of one
// evaluation that ask for the same score (rouge with its default type and
// rouge_l) share it.
type rougeKey struct {
	typ                rouge.Type
	opts               rouge.Options
	target, prediction string
}

// pairKey names the numbered tokens of two texts (rouge.NewPair).
type pairKey struct {
	target, prediction string
	stem               bool
}

// rougeScore scores prediction against target with s, computing each score
// and the tokens of each pair of texts once per instance: rougeN, rougeL
// and rougeLsum without split_summaries read the same pair, and rougeLsum
// of two one-line texts is their rougeL score.
func rougeScore(in *scorer.Instance, s *rouge.Scorer, target, prediction string) rouge.Score {
	typ := s.Type()
	if typ == rouge.TypeLsum && !s.Options().SplitSummaries && !strings.Contains(target, "\n") && !strings.Contains(prediction, "\n") {
		typ = rouge.TypeL // one sentence each: rougeLsum is rougeL, computed once
	}
	return scorer.Derive(in, rougeKey{typ, s.Options(), target, prediction}, func() rouge.Score {
		return s.ScorePair(rougePair(in, s.Text(target), s.Text(prediction), s.Options().UseStemmer))
	})
}

// rougePair returns the numbered tokens of target and prediction, built
// once per instance; the stemmed pair is built from the unstemmed one.
func rougePair(in *scorer.Instance, target, prediction string, stem bool) rouge.Pair {
	return scorer.Derive(in, pairKey{target, prediction, stem}, func() rouge.Pair {
		if stem {
			return rougePair(in, target, prediction, false).Stemmed()
		}
		return rouge.NewPair(target, prediction, false)
	})
}
