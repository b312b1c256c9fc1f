package text

import (
	"errors"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/text/bleu"
)

// MetricBLEU is the id of Vertex AI's bleu metric.
const MetricBLEU = "bleu"

// ParamUseEffectiveOrder is bleu's parameter: average only over the
// n-gram orders the response has (default true).
const ParamUseEffectiveOrder = "use_effective_order"

// newBLEU builds Vertex AI's bleu, computed as sacrebleu's sentence BLEU
// (package bleu) divided by 100.
//
// Formula: BP·exp(mean over n of log p_n), n = 1..4, with the 13a
// tokenizer, exp smoothing of zero n-gram counts and the brevity penalty
// BP = exp(1 - ref_len/sys_len) when the response is shorter. Vertex
// computes bleu server-side and documents only "a score between 0 and 1"
// and use_effective_order; sacrebleu's sentence_bleu is the reference
// implementation followed. Vertex's BleuSpec defaults use_effective_order
// to false, but this metric defaults it to true as sentence_bleu does
// (without it a response shorter than four tokens scores about 0); set
// use_effective_order: false for the BleuSpec default.
//
// Edge cases: an empty response scores 0; no matching unigram scores 0;
// an empty reference is not applicable (sacrebleu refuses it). An
// identical response scores sacrebleu's value, which can exceed 1 by a
// rounding unit (1.0000000000000004). Details: "precisions" (p_1..p_4 on
// 0–1), "bp", "sys_len", "ref_len".
func newBLEU(params map[string]any) (scorer.Metric, error) {
	p := scorer.Params(params)
	if err := p.CheckKnown(ParamUseEffectiveOrder); err != nil {
		return nil, err
	}
	eff, err := p.Bool(ParamUseEffectiveOrder, true)
	if err != nil {
		return nil, err
	}
	opts := bleu.SentenceOptions()
	opts.EffectiveOrder = eff
	b, err := bleu.New(opts)
	if err != nil {
		return nil, err
	}
	return scorer.Func(MetricBLEU, scorer.InResponse|scorer.InReference, func(in *scorer.Instance) (scorer.Result, error) {
		s, err := b.Sentence(in.Response, in.Reference)
		if errors.Is(err, bleu.ErrEmptyReference) {
			return scorer.Result{}, scorer.ErrNotApplicable
		}
		if err != nil {
			return scorer.Result{}, err
		}
		prec := make([]float64, len(s.Precisions))
		for i, p := range s.Precisions {
			prec[i] = p / 100
		}
		return scorer.Result{
			Score: s.Score / 100,
			Details: map[string]any{
				"precisions": prec,
				"bp":         s.BP,
				"sys_len":    s.SysLen,
				"ref_len":    s.RefLen,
			},
		}, nil
	}), nil
}
