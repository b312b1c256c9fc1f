package vertex

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"strings"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// rubricSpec defines a managed rubric metric.
type rubricSpec struct {
	id    string
	needs scorer.Inputs
	// inputs are the user inputs shown when validating.
	inputs []inputVar
	// noResponse: the response is not judged (nor shown).
	noResponse bool
	// genInputs are the inputs rubrics are generated from; nil for a
	// metric with static rubrics.
	genInputs []inputVar
	// generate describes what generated rubrics must cover.
	generate string
	// validate describes what the validator judges.
	validate string
	// fixed are the static rubrics (trusted text).
	fixed []string
	// allPass scores 1 when every rubric passes and 0 otherwise (safety).
	allPass bool
	// textFallback parses a non-JSON validation answer with the §7.2
	// <question> block parser.
	textFallback bool
}

// rubricMetric scores the passing rate of rubric verdicts.
type rubricMetric struct {
	judgemetric.Base
	spec    rubricSpec
	rubrics []string // configured rubrics; nil uses spec.fixed or generates
	samples int
	// temperature of the verdict calls (judgemetric.SamplingTemperature);
	// rubric generation uses the judge's.
	temperature *float64
	cache       *lru.Cache[string, []string] // generated rubrics by input hash; nil: no caching
}

// Needs returns the metric's required inputs.
func (m *rubricMetric) Needs() scorer.Inputs { return m.spec.needs }

// adaptive reports whether rubrics are generated per input.
func (m *rubricMetric) adaptive() bool { return m.rubrics == nil && m.spec.genInputs != nil }

// Score generates (or reuses) the rubrics, asks the judge for verdicts
// num_samples times, combines them by self-consistency and returns the
// passing rate. A JSON answer must judge every rubric (see
// ParseVerdicts). For the §7.2 text fallback the score is over the parsed
// questions as in the preview SDK, except that when no question at all
// could be parsed the SDK's score 0 becomes an invalid_response error:
// an unreadable answer never yields a score.
func (m *rubricMetric) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	c := m.Caller()
	rubrics, trusted := m.rubrics, true
	cacheHit := false
	if m.rubrics == nil {
		rubrics = m.spec.fixed
	}
	if m.adaptive() {
		trusted = false
		var err error
		rubrics, cacheHit, err = m.generated(ctx, c, in)
		if err != nil {
			return scorer.Result{}, err
		}
	}
	inputs, err := resolve(in, m.spec.inputs)
	if err != nil {
		return scorer.Result{}, err
	}
	var resp []part
	if !m.spec.noResponse {
		resp = []part{{field: FieldResponse, text: in.Response}}
	}
	system := m.validationSystem(rubrics, trusted)
	samples := make([][]QuestionVerdict, 0, m.samples)
	for range m.samples {
		sample, err := judgemetric.Ask(ctx, c, func(s judge.Sanitizer) *judge.Request {
			prompt := renderInputs(s, inputs, resp...)
			if !trusted {
				prompt += "\n\n# Rubrics\n" + s.UntrustedPieces(FieldRubrics, rubricPieces(rubrics))
			}
			return &judge.Request{System: system, Prompt: prompt, Schema: verdictSchema(), Temperature: m.temperature}
		}, func(ans string) ([]QuestionVerdict, error) { return m.parseSample(ans, rubrics) })
		if err != nil {
			return scorer.Result{}, err
		}
		samples = append(samples, sample)
	}
	cons, score := SelfConsistency(samples)
	if len(cons) == 0 {
		return scorer.Result{}, judgemetric.Unparseable("no rubric verdict could be parsed")
	}
	res := consensusResult(cons, len(samples))
	if m.spec.allPass {
		res.Details["pass_rate"] = score
		if score < 1 {
			res.Score = 0
		}
	}
	res.Details["rubrics_generated"] = m.adaptive()
	if m.adaptive() {
		res.Details["rubric_cache_hit"] = cacheHit
	}
	return c.Finish(res), nil
}

// parseSample parses one validation answer: JSON verdicts, or for a
// metric with textFallback a non-JSON answer in the §7.2 text format,
// whose questions are mapped onto the asked rubrics when the texts match.
func (m *rubricMetric) parseSample(ans string, rubrics []string) ([]QuestionVerdict, error) {
	if m.spec.textFallback {
		if _, err := judgemetric.ExtractJSON(ans); err != nil {
			vs := ParseQuestionBlocks(ans)
			canon := make(map[string]string, len(rubrics))
			for _, r := range rubrics {
				canon[normalize(r)] = r
			}
			for i := range vs {
				if r, ok := canon[normalize(vs[i].Question)]; ok {
					vs[i].Question = r
				}
			}
			return vs, nil
		}
	}
	return ParseVerdicts(ans, rubrics)
}

// consensusResult builds the Result of a rubric metric from the combined
// verdicts (see passShare), with the agreement across samples as
// confidence when there were several.
func consensusResult(cons []Consensus, samples int) scorer.Result {
	vs := make([]scorer.Verdict, len(cons))
	agree := 0.0
	for i, c := range cons {
		vs[i] = scorer.Verdict{Rubric: c.Question, Pass: c.Pass, Reason: c.Reason}
		// majority share of the votes: (votes + |sum|) / 2 / votes.
		agree += float64(c.Votes+max(c.Sum, -c.Sum)) / 2 / float64(c.Votes)
	}
	res := passShare(vs, "All rubrics passed.", "Failed rubrics: ", func(i int) string { return vs[i].Rubric + ": " + vs[i].Reason })
	if samples > 1 {
		res.Confidence = agree / float64(len(cons))
	}
	res.Details["rubrics"] = len(cons)
	res.Details["samples"] = samples
	return res
}

// passShare scores pass/fail verdicts: the share that passes, label
// "pass" when all do, and an explanation that is allPassed or lists the
// failed verdicts, each as failure renders vs[i], after intro.
func passShare(vs []scorer.Verdict, allPassed, intro string, failure func(i int) string) scorer.Result {
	var failed []string
	for i, v := range vs {
		if !v.Pass {
			failed = append(failed, failure(i))
		}
	}
	passed := len(vs) - len(failed)
	res := scorer.Result{Score: float64(passed) / float64(len(vs)), Label: "pass", Explanation: allPassed, Verdicts: vs, Details: map[string]any{"passed": passed}}
	if len(failed) > 0 {
		res.Label = "fail"
		res.Explanation = capText(intro+strings.Join(failed, "; "), maxExplanation)
	}
	return res
}

// generated returns the rubrics generated for in: from the cache when the
// same inputs were seen, else by one judge call (metrics.md §7.2).
func (m *rubricMetric) generated(ctx context.Context, c *judgemetric.Caller, in *scorer.Instance) ([]string, bool, error) {
	parts, err := resolve(in, m.spec.genInputs)
	if err != nil {
		return nil, false, err
	}
	key := cacheKey(m.ID, parts)
	if m.cache != nil {
		if r, ok := m.cache.Get(key); ok {
			return r, true, nil
		}
	}
	system := generationSystem(m.spec.generate)
	rubrics, err := judgemetric.Ask(ctx, c, func(s judge.Sanitizer) *judge.Request {
		var b strings.Builder
		b.WriteString("# User Inputs\n")
		renderParts(&b, s, parts)
		return &judge.Request{System: system, Prompt: b.String(), Schema: questionsSchema()}
	}, ParseQuestions)
	if err != nil {
		return nil, false, err
	}
	if m.cache != nil {
		m.cache.Add(key, rubrics)
	}
	return rubrics, false, nil
}

// cacheKey hashes the metric id and the generation inputs.
func cacheKey(id string, parts []part) string {
	h := sha256.New()
	h.Write([]byte(id))
	for _, p := range parts {
		h.Write([]byte{0})
		h.Write([]byte(p.field))
		h.Write([]byte{0})
		h.Write([]byte(p.text))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// rubricPieces lays rubrics out one "- rubric" line each; the "- " is
// markup.
func rubricPieces(rubrics []string) []judge.Piece {
	out := make([]judge.Piece, len(rubrics))
	for i, r := range rubrics {
		out[i] = judge.Piece{Markup: "\n- ", Text: r}
	}
	if len(out) > 0 {
		out[0].Markup = "- "
	}
	return out
}

// generationSystem is the system prompt of a rubric-generation call.
func generationSystem(focus string) string {
	return `# Instruction
You write evaluation rubrics for AI-generated responses. ` + focus + `
Read the user inputs and write yes/no questions (rubrics) that a high-quality response to them must satisfy. Each question must be specific to these inputs, self-contained, and answerable with yes or no by reading the response; "yes" must always mean the response is better. Write between 3 and 10 questions.

# Answer Format
Answer with one JSON object and nothing else: {"questions": ["<question>", ...]}`
}

// validationSystem is the system prompt of a validation call; trusted
// rubrics are listed in it, generated ones follow the inputs in the
// user message.
func (m *rubricMetric) validationSystem(rubrics []string, trusted bool) string {
	var b strings.Builder
	b.WriteString("# Instruction\nYou are an expert evaluator. ")
	b.WriteString(m.spec.validate)
	b.WriteString("\nFor each rubric decide whether it is satisfied (verdict true) or not (verdict false), using only the user inputs")
	if !m.spec.noResponse {
		b.WriteString(" and the AI-generated response")
	}
	b.WriteString(". Judge every rubric independently and give a short reasoning for each. Copy each rubric's text verbatim into \"rubric\".")
	if trusted {
		b.WriteString("\n\n## Rubrics\n")
		b.WriteString(judge.JoinPieces(rubricPieces(rubrics)))
	} else {
		b.WriteString(" The rubrics are listed after the user inputs, under \"# Rubrics\".")
	}
	b.WriteString("\n\n# Answer Format\n")
	b.WriteString(`Answer with one JSON object and nothing else: {"verdicts": [{"rubric": "<rubric text, verbatim>", "reasoning": "<why>", "verdict": true or false}]}, with exactly one entry per rubric, in the order given.`)
	return b.String()
}
