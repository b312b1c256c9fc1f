package scorer

import (
	"sync"

	"github.com/evalsidecar/evalsidecar/extractor"
	"github.com/evalsidecar/evalsidecar/scorer/bleu"
	"github.com/evalsidecar/evalsidecar/scorer/rouge"
)

// PreparedReference is the expected side of one eval-case turn (its
// reference response and reference tool calls) together with what the
// reference-based text metrics derive from that side alone: tokens and
// n-gram tables of the text. Each is built on
// first use and then shared by every run scored against the turn, so
// canary traffic, which scores many runs against the same few cases, pays
// for the reference side once per case instead of once per run.
//
// A PreparedReference is safe for concurrent use. An Instance uses it
// (see Instance.PreparedReference) only for the text it was made from: a
// metric reading another text, such as an invocation with its own
// reference, derives that one itself.
type PreparedReference struct {
	text string

	targetOnce sync.Once
	target     *rouge.Target

	mu   sync.Mutex
	bleu map[string]preparedBLEU // by tokenizer
}

// preparedBLEU is the text prepared for one BLEU tokenizer, or the error
// preparing it gave.
type preparedBLEU struct {
	ref *bleu.Reference
	err error
}

// NewPreparedReference returns the prepared reference side of a turn
// whose reference response is text; the tool-call metrics derive nothing
// from the turn's reference tool calls ahead of time. Nothing is derived
// until a metric asks.
func NewPreparedReference(text string, _ []extractor.ToolCall) *PreparedReference {
	return &PreparedReference{text: text}
}

// rougeTarget returns the reference text as a ROUGE target when text is
// that text, built on first use, else nil.
func (p *PreparedReference) rougeTarget(text string) *rouge.Target {
	if !p.hasText(text) {
		return nil
	}
	p.targetOnce.Do(func() { p.target = rouge.NewTarget(p.text) })
	return p.target
}

// bleuReference returns the reference text prepared for b's tokenizer
// when text is that text, built on first use, and ok false otherwise. An
// empty reference gives bleu.ErrEmptyReference.
func (p *PreparedReference) bleuReference(b *bleu.BLEU, text string) (ref *bleu.Reference, ok bool, err error) {
	if !p.hasText(text) {
		return nil, false, nil
	}
	tok := b.Options().Tokenizer
	p.mu.Lock()
	defer p.mu.Unlock()
	pb, done := p.bleu[tok]
	if !done {
		pb.ref, pb.err = b.Prepare(p.text)
		if p.bleu == nil {
			p.bleu = make(map[string]preparedBLEU, 1)
		}
		p.bleu[tok] = pb
	}
	return pb.ref, true, pb.err
}

// hasText reports whether text is the reference response p was made
// from. The comparison is cheap when text is that very string.
func (p *PreparedReference) hasText(text string) bool {
	return p != nil && p.text == text
}
