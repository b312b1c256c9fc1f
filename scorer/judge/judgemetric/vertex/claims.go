package vertex

import (
	"context"
	"slices"
	"strings"

	"github.com/evalsidecar/evalsidecar/agentrun"
	"github.com/evalsidecar/evalsidecar/scorer"
	"github.com/evalsidecar/evalsidecar/scorer/judge"
	"github.com/evalsidecar/evalsidecar/scorer/judge/judgemetric"
)

// Claim labels (metrics.md §7.3, hallucination_v*): supported and no_rad
// ("no attribution required": greetings, questions, disclaimers) pass.
const (
	LabelSupported     = "supported"
	LabelUnsupported   = "unsupported"
	LabelContradictory = "contradictory"
	LabelDisputed      = "disputed"
	LabelNoRAD         = "no_rad"
)

var claimLabels = []string{LabelSupported, LabelUnsupported, LabelContradictory, LabelDisputed, LabelNoRAD}

// Claim is one atomic claim of a response and its label.
type Claim struct {
	Text      string
	Label     string
	Rationale string
}

// Passes reports whether the claim counts towards the score.
func (c Claim) Passes() bool { return c.Label == LabelSupported || c.Label == LabelNoRAD }

// ParseClaims parses a claim-labelling answer {"claims": [{"claim":
// string, "label": string, "rationale": string}]} ("sentence" is accepted
// for "claim"). Labels are trimmed and lower-cased and must be one of
// supported, unsupported, contradictory, disputed, no_rad. An unknown
// label, a missing field or an empty list is an invalid_response error.
func ParseClaims(answer string) ([]Claim, error) {
	var a struct {
		Claims *[]struct {
			Claim     *string `json:"claim"`
			Sentence  *string `json:"sentence"`
			Label     *string `json:"label"`
			Rationale *string `json:"rationale"`
		} `json:"claims"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return nil, err
	}
	if a.Claims == nil || len(*a.Claims) == 0 {
		return nil, judgemetric.Unparseable("answer has no claims")
	}
	out := make([]Claim, 0, len(*a.Claims))
	for i, c := range *a.Claims {
		text := c.Claim
		if text == nil {
			text = c.Sentence
		}
		if text == nil || c.Label == nil || c.Rationale == nil {
			return nil, judgemetric.Unparseable("claim %d lacks claim, label or rationale", i)
		}
		label := strings.ToLower(strings.TrimSpace(*c.Label))
		if !slices.Contains(claimLabels, label) {
			return nil, judgemetric.Unparseable("claim %d has unknown label %q", i, *c.Label)
		}
		out = append(out, Claim{Text: *text, Label: label, Rationale: *c.Rationale})
	}
	return out, nil
}

// ParseSegments parses a segmentation answer {"claims": [string]}: the
// response's atomic claims (see cleanTexts; at most maxClaims).
func ParseSegments(answer string) ([]string, error) {
	var a struct {
		Claims []string `json:"claims"`
	}
	if err := judgemetric.DecodeJSON(answer, &a); err != nil {
		return nil, err
	}
	return cleanTexts(a.Claims, "claims", maxClaims, false)
}

// maxClaims caps the claims taken from a segmentation answer.
const maxClaims = 64

// matchClaims keeps the labelled claims that match the segmented ones
// (by text, ignoring case and whitespace), in segment order. A claim
// labelled twice or left unlabelled makes the answer invalid; labels for
// unknown claims are dropped.
func matchClaims(labelled []Claim, segments []string) ([]Claim, error) {
	index := make(map[string]int, len(segments))
	for i, s := range segments {
		index[normalize(s)] = i
	}
	out := make([]Claim, len(segments))
	seen := make([]bool, len(segments))
	for _, c := range labelled {
		i, ok := index[normalize(c.Text)]
		if !ok {
			continue
		}
		if seen[i] {
			return nil, judgemetric.Unparseable("claim %q labelled twice", segments[i])
		}
		seen[i] = true
		c.Text = segments[i]
		out[i] = c
	}
	for i, ok := range seen {
		if !ok {
			return nil, judgemetric.Unparseable("no label for claim %q", segments[i])
		}
	}
	return out, nil
}

// claimsResult scores labelled claims: the share that passes.
func claimsResult(claims []Claim) scorer.Result {
	vs := make([]scorer.Verdict, len(claims))
	counts := make(map[string]int, len(claimLabels))
	for i, c := range claims {
		vs[i] = scorer.Verdict{Rubric: c.Text, Pass: c.Passes(), Reason: c.Label + ": " + c.Rationale}
		counts[c.Label]++
	}
	res := passShare(vs, "All claims are supported or need no attribution.", "Claims not supported: ", func(i int) string {
		return claims[i].Label + ": " + claims[i].Text + " (" + claims[i].Rationale + ")"
	})
	res.Details["claims"] = len(claims)
	for _, l := range claimLabels {
		res.Details["label_"+l] = counts[l]
	}
	return res
}

// labelsSchema is the structured-output schema of a labelling answer.
func labelsSchema() *judge.Schema {
	labels := make([]any, len(claimLabels))
	for i, l := range claimLabels {
		labels[i] = l
	}
	item := judgemetric.Object("claim", judgemetric.Type("string"), "rationale", judgemetric.Type("string"), "label", judgemetric.Type("string", labels...))
	return judgemetric.ObjectSchema("claim_labels", "claims", judgemetric.Array(item))
}

// segmentsSchema is the structured-output schema of a segmentation answer.
func segmentsSchema() *judge.Schema {
	return judgemetric.ObjectSchema("claim_segments", "claims", judgemetric.Array(judgemetric.Type("string")))
}

// labelInstruction explains the claim labels to the judge.
const labelInstruction = `Labels:
- supported: the evidence states or directly implies the claim.
- unsupported: the evidence does not mention the claim, or says too little to confirm it.
- contradictory: the evidence contradicts the claim.
- disputed: parts of the evidence support the claim and other parts contradict it.
- no_rad: the claim needs no attribution (a greeting, a question, an offer of help, a disclaimer, an opinion about the conversation itself).`

// claimsAnswerFormat is the answer format of a labelling call.
const claimsAnswerFormat = `# Answer Format
Answer with one JSON object and nothing else: {"claims": [{"claim": "<claim text>", "rationale": "<why, quoting the evidence>", "label": "<label>"}]}`

// claimMetric scores the share of a response's atomic claims labelled
// supported or no_rad (metrics.md §7.3; managed metrics document, seed
// 002); label "pass" when every claim passes.
type claimMetric struct {
	judgemetric.Base
	needs   scorer.Inputs
	segment bool // a separate segmentation call first
	// intermediate judges the run's intermediate responses too.
	intermediate bool
	// evidence are the parts the claims of a response are checked
	// against, calls the tool calls made before it.
	evidence func(in *scorer.Instance, calls []agentrun.ToolCall) []part
	system   string
}

// claimMetrics returns grounding_v1, one call that splits the response
// into claims and labels them against the prompt and the context, and
// hallucination_v1: one call segments the response into claims, a second
// labels them against the agent's instruction, prompt, tools and tool
// calls (a claim left unlabelled makes the answer invalid; labels for
// claims not asked about are dropped). With
// evaluate_intermediate_nl_responses the text of each model call before
// the final response is judged the same way against the tool calls made
// before it, and the score is the share over the claims of every response.
func claimMetrics() []claimMetric {
	return []claimMetric{
		{Base: judgemetric.Base{ID: "grounding_v1"}, needs: scorer.InPrompt | scorer.InResponse | scorer.InContext, evidence: groundingEvidence, system: groundingSystem},
		{Base: judgemetric.Base{ID: "hallucination_v1"}, needs: scorer.InResponse | scorer.InPredictedTrajectory, segment: true, evidence: hallucinationEvidence, system: hallucinationSystem},
	}
}

// Needs returns the metric's required inputs.
func (m *claimMetric) Needs() scorer.Inputs { return m.needs }

// segmentSystem is the system prompt of a segmentation call.
const segmentSystem = `# Instruction
You split an AI-generated response into atomic claims. An atomic claim is the smallest self-contained statement that can be checked on its own. Keep the response's own wording as far as possible; each bullet point becomes at least one claim; greetings, questions and disclaimers are claims too. Do not judge the claims.

# Answer Format
Answer with one JSON object and nothing else: {"claims": ["<claim>", ...]}`

// ParamIntermediate is hallucination_v1's evaluate_intermediate_nl_responses:
// judge the agent's intermediate text responses as well as its final one.
const ParamIntermediate = "evaluate_intermediate_nl_responses"

// Score labels the response's claims (and, with intermediate, those of
// every intermediate response) and returns the share supported or needing
// no attribution.
func (m *claimMetric) Score(ctx context.Context, in *scorer.Instance) (scorer.Result, error) {
	c := m.Caller()
	var claims []Claim
	responses := 1
	if m.intermediate {
		for _, mt := range in.IntermediateResponses() {
			cs, err := m.labelClaims(ctx, c, in, mt.Text, in.PredictedTrajectory[:mt.CallsBefore])
			if err != nil {
				return scorer.Result{}, err
			}
			claims = append(claims, cs...)
			responses++
		}
	}
	cs, err := m.labelClaims(ctx, c, in, in.Response, in.PredictedTrajectory)
	if err != nil {
		return scorer.Result{}, err
	}
	res := claimsResult(append(claims, cs...))
	if m.intermediate {
		res.Details["responses"] = responses
	}
	return c.Finish(res), nil
}

// labelClaims has the claims of response, one of in's responses made
// after calls, labelled against the metric's evidence.
func (m *claimMetric) labelClaims(ctx context.Context, c *judgemetric.Caller, in *scorer.Instance, response string, calls []agentrun.ToolCall) ([]Claim, error) {
	var segments []string
	if m.segment {
		var err error
		segments, err = judgemetric.Ask(ctx, c, func(s judge.Sanitizer) *judge.Request {
			return &judge.Request{
				System: segmentSystem,
				Prompt: "# AI-generated Response\n" + s.Untrusted(FieldResponse, response),
				Schema: segmentsSchema(),
			}
		}, ParseSegments)
		if err != nil {
			return nil, err
		}
	}
	evidence := m.evidence(in, calls)
	claims, err := judgemetric.Ask(ctx, c, func(s judge.Sanitizer) *judge.Request {
		var b strings.Builder
		b.WriteString("# Evidence\n")
		renderParts(&b, s, evidence)
		if m.segment {
			b.WriteString("\n\n# Claims\n")
			b.WriteString(s.UntrustedPieces(FieldResponse, rubricPieces(segments)))
		} else {
			b.WriteString("\n\n# AI-generated Response\n")
			b.WriteString(s.Untrusted(FieldResponse, response))
		}
		return &judge.Request{System: m.system, Prompt: b.String(), Schema: labelsSchema()}
	}, ParseClaims)
	if err != nil {
		return nil, err
	}
	if m.segment {
		return matchClaims(claims, segments)
	}
	return claims, nil
}
