// Package bleu computes BLEU exactly as sacrebleu 2.x does (sentence
// BLEU as sacrebleu.sentence_bleu, corpus BLEU as corpus_bleu): its 13a,
// char and none tokenizers, clipped n-gram statistics against the maximum
// count over the references, the closest reference length (shorter on a
// tie), the brevity penalty, and the exp, floor, add-k and none smoothing
// methods. Scores are on sacrebleu's 0–100 scale.
package bleu

import (
	"errors"
	"fmt"
	"math"
)

// MaxOrder is the n-gram order (sacrebleu's max_ngram_order).
const MaxOrder = 4

// Smoothing methods accepted by Options.Smooth.
const (
	SmoothExp   = "exp"
	SmoothFloor = "floor"
	SmoothAddK  = "add-k"
	SmoothNone  = "none"
)

// ErrEmptyReference reports a segment with no non-empty reference, which
// sacrebleu refuses ("Empty or `None` reference sentence found").
var ErrEmptyReference = errors.New("bleu: empty reference")

// Options are sacrebleu's BLEU options.
type Options struct {
	// Tokenizer is "13a" (default when empty), "char" or "none".
	Tokenizer string
	// Smooth is "exp" (default when empty), "floor", "add-k" or "none".
	Smooth string
	// SmoothValue is the floor or add-k value; 0 means sacrebleu's
	// default (0.1 for floor, 1 for add-k).
	SmoothValue float64
	// EffectiveOrder averages only over the n-gram orders the hypothesis
	// has (sacrebleu's effective_order; on for sentence_bleu).
	EffectiveOrder bool
}

// SentenceOptions are the options of sacrebleu.sentence_bleu: 13a, exp
// smoothing, effective order.
func SentenceOptions() Options {
	return Options{Tokenizer: Tokenizer13a, Smooth: SmoothExp, EffectiveOrder: true}
}

// Stats are the sufficient statistics of one segment or a corpus.
type Stats struct {
	SysLen  int
	RefLen  int
	Correct [MaxOrder]int
	Total   [MaxOrder]int
}

// Add accumulates o into s.
func (s *Stats) Add(o Stats) {
	s.SysLen += o.SysLen
	s.RefLen += o.RefLen
	for i := range MaxOrder {
		s.Correct[i] += o.Correct[i]
		s.Total[i] += o.Total[i]
	}
}

// Score is a BLEU result on sacrebleu's 0–100 scale.
type Score struct {
	Score      float64
	Precisions [MaxOrder]float64
	BP         float64
	SysLen     int
	RefLen     int
}

// BLEU scores hypotheses with fixed options. It is immutable and safe for
// concurrent use.
type BLEU struct {
	opts     Options
	tokenize func(line string) []string
}

// New checks the options and returns a scorer.
func New(opts Options) (*BLEU, error) {
	if opts.Tokenizer == "" {
		opts.Tokenizer = Tokenizer13a
	}
	if opts.Smooth == "" {
		opts.Smooth = SmoothExp
	}
	b := &BLEU{opts: opts}
	switch opts.Tokenizer {
	case Tokenizer13a:
		b.tokenize = Tokenize13a
	case TokenizerChar:
		b.tokenize = TokenizeChar
	case TokenizerNone:
		b.tokenize = Fields
	default:
		return nil, fmt.Errorf("bleu: unknown tokenizer %q (want 13a, char or none)", opts.Tokenizer)
	}
	switch opts.Smooth {
	case SmoothExp, SmoothNone:
	case SmoothFloor, SmoothAddK:
		if opts.SmoothValue < 0 || math.IsNaN(opts.SmoothValue) || math.IsInf(opts.SmoothValue, 0) {
			return nil, fmt.Errorf("bleu: smooth value must be a finite number >= 0, got %v", opts.SmoothValue)
		}
	default:
		return nil, fmt.Errorf("bleu: unknown smoothing method %q (want exp, floor, add-k or none)", opts.Smooth)
	}
	return b, nil
}

// Sentence scores one hypothesis against its references
// (sacrebleu BLEU.sentence_score).
func (b *BLEU) Sentence(hyp string, refs ...string) (Score, error) {
	st, err := b.SegmentStats(hyp, refs)
	if err != nil {
		return Score{}, err
	}
	return b.Compute(st), nil
}

// Corpus scores hypotheses against reference streams: stream k holds the
// k-th reference of every hypothesis (sacrebleu corpus_bleu). Statistics
// are summed over segments before the score is computed.
func (b *BLEU) Corpus(hyps []string, streams [][]string) (Score, error) {
	for k, s := range streams {
		if len(s) != len(hyps) {
			return Score{}, fmt.Errorf("bleu: reference stream %d has %d segments, hypotheses have %d", k, len(s), len(hyps))
		}
	}
	var total Stats
	refs := make([]string, len(streams))
	for i, h := range hyps {
		for k := range streams {
			refs[k] = streams[k][i]
		}
		st, err := b.SegmentStats(h, refs)
		if err != nil {
			return Score{}, fmt.Errorf("segment %d: %w", i, err)
		}
		total.Add(st)
	}
	return b.Compute(total), nil
}

// SegmentStats computes the statistics of one segment. Each side is
// right-stripped of whitespace and tokenized; empty references are
// skipped, and a segment with none left is ErrEmptyReference. A
// hypothesis n-gram is correct up to its highest count in one reference;
// the reference length is the one closest to the hypothesis's.
func (b *BLEU) SegmentStats(hyp string, refs []string) (Stats, error) {
	seqs := [][]string{b.tokenize(rstrip(hyp))} // the hypothesis, then each reference
	for _, r := range refs {
		if r != "" {
			seqs = append(seqs, b.tokenize(rstrip(r)))
		}
	}
	if len(seqs) == 1 {
		return Stats{}, ErrEmptyReference
	}
	refLens := make([]int, 0, len(seqs)-1)
	for _, toks := range seqs[1:] {
		refLens = append(refLens, len(toks))
	}
	st := Stats{SysLen: len(seqs[0]), RefLen: closestRefLen(len(seqs[0]), refLens)}
	for n, c := range matches(seqs) {
		st.Total[n] = max(len(seqs[0])-n, 0)
		st.Correct[n] = c
	}
	return st, nil
}

// closestRefLen is the reference length closest to hypLen, the shorter
// one on a tie.
func closestRefLen(hypLen int, refLens []int) int {
	best, bestDiff := -1, -1
	for _, l := range refLens {
		d := hypLen - l
		if d < 0 {
			d = -d
		}
		if bestDiff == -1 || d < bestDiff || d == bestDiff && l < best {
			best, bestDiff = l, d
		}
	}
	return best
}

// Compute turns statistics into a score with the scorer's smoothing and
// effective-order settings (sacrebleu BLEU.compute_bleu).
func (b *BLEU) Compute(st Stats) Score {
	return Compute(st, b.opts.Smooth, b.opts.SmoothValue, b.opts.EffectiveOrder)
}

// Compute is sacrebleu's compute_bleu:
//
//   - BP = 1 when sys_len >= ref_len, else exp(1 - ref_len/sys_len), and
//     0 for an empty hypothesis;
//   - no correct n-gram of any order gives 0;
//   - for n = 1..4 it stops at the first order with no hypothesis n-gram;
//     with effective order the average runs over the orders reached;
//   - a zero count is smoothed: exp gives 100/(2^k·total) for the k-th
//     zero, floor gives 100·value/total; add-k adds value to the correct
//     and total counts of orders 2..4; none leaves 0, whose log is
//     sacrebleu's -9999999999;
//   - score = BP·exp(Σ log p_n / order).
//
// smoothValue 0 means the method's default (floor 0.1, add-k 1).
func Compute(st Stats, smooth string, smoothValue float64, effectiveOrder bool) Score {
	if smoothValue == 0 {
		switch smooth {
		case SmoothFloor:
			smoothValue = 0.1
		case SmoothAddK:
			smoothValue = 1
		}
	}
	s := Score{SysLen: st.SysLen, RefLen: st.RefLen, BP: 1}
	if st.SysLen < st.RefLen {
		if st.SysLen > 0 {
			s.BP = math.Exp(1 - float64(st.RefLen)/float64(st.SysLen))
		} else {
			s.BP = 0
		}
	}
	anyCorrect := false
	for _, c := range st.Correct {
		if c != 0 {
			anyCorrect = true
		}
	}
	if !anyCorrect {
		return s
	}
	var correct, total [MaxOrder]float64
	for i := range MaxOrder {
		correct[i], total[i] = float64(st.Correct[i]), float64(st.Total[i])
	}
	smoothMteval := 1.0
	effOrder := MaxOrder
	for n := 1; n <= MaxOrder; n++ {
		if smooth == SmoothAddK && n > 1 {
			correct[n-1] += smoothValue
			total[n-1] += smoothValue
		}
		if total[n-1] == 0 {
			break
		}
		if effectiveOrder {
			effOrder = n
		}
		if correct[n-1] == 0 {
			switch smooth {
			case SmoothExp:
				smoothMteval *= 2
				s.Precisions[n-1] = 100 / (smoothMteval * total[n-1])
			case SmoothFloor:
				s.Precisions[n-1] = 100 * smoothValue / total[n-1]
			}
		} else {
			s.Precisions[n-1] = 100 * correct[n-1] / total[n-1]
		}
	}
	sum := 0.0
	for _, p := range s.Precisions[:effOrder] {
		sum += myLog(p)
	}
	s.Score = s.BP * math.Exp(sum/float64(effOrder))
	return s
}

// myLog is sacrebleu's my_log: log, with log(0) = -9999999999.
func myLog(x float64) float64 {
	if x == 0 {
		return -9999999999
	}
	return math.Log(x)
}
