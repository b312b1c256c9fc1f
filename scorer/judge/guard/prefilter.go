package guard

import (
	"regexp"
	"strings"
	"unicode"
)

// masterKeys are answers known to make judges accept them whatever the
// question ("One Token to Fool LLM-as-a-Judge"), normalised by
// normaliseAnswer.
var masterKeys = map[string]bool{
	"thought process":                       true,
	"let's solve this problem step by step": true,
	"lets solve this problem step by step":  true,
	"let's think step by step":              true,
	"solution":                              true,
	"answer":                                true,
	"the answer is":                         true,
	"final answer":                          true,
	"解":                                     true,
	"答案":                                    true,
}

// isEmptyAnswer reports an answer that is empty, punctuation, symbols or
// spaces only, or a master key.
func isEmptyAnswer(s string) bool {
	substantive := strings.ContainsFunc(s, func(r rune) bool {
		return !unicode.IsSpace(r) && !unicode.IsPunct(r) && !unicode.IsSymbol(r) && !unicode.IsControl(r)
	})
	if !substantive {
		return true
	}
	return masterKeys[normaliseAnswer(s)]
}

// normaliseAnswer lower-cases s, folds typographic apostrophes, collapses
// spaces and trims surrounding spaces and punctuation.
func normaliseAnswer(s string) string {
	if len(s) > 128 {
		return ""
	}
	s = strings.ToLower(strings.ReplaceAll(s, "’", "'"))
	s = strings.Join(strings.Fields(s), " ")
	return strings.TrimFunc(s, func(r rune) bool { return unicode.IsPunct(r) && r != '\'' || unicode.IsSpace(r) })
}

// homoglyphs maps look-alike letters of other scripts to Latin ones.
var homoglyphs = map[rune]rune{
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'х': 'x', 'у': 'y', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd',
	'ɡ': 'g', 'һ': 'h', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'ν': 'v', 'ο': 'o', 'α': 'a', 'ι': 'i', 'κ': 'k', 'ρ': 'p',
	'τ': 't', 'υ': 'u', 'ε': 'e', 'ѵ': 'v', 'ꞇ': 't', 'ı': 'i', 'ℓ': 'l',
}

// normaliseForMatch prepares text for the injection phrases: lower case,
// full-width forms and look-alike letters folded to ASCII, punctuation
// other than { } " : / and ' turned into spaces, spaces collapsed.
func normaliseForMatch(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	space := true
	for _, r := range s {
		if r >= 0xFF01 && r <= 0xFF5E {
			r -= 0xFEE0
		}
		r = unicode.ToLower(r)
		if r >= 0x100 {
			if h, ok := homoglyphs[r]; ok {
				r = h
			}
		}
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune(`{}":/'`, r):
			b.WriteRune(r)
			space = false
		case unicode.Is(unicode.Mn, r) || r == 0x200C || r == 0x200D:
			// combining marks and joiners inside words are dropped
		default:
			if !space {
				b.WriteByte(' ')
				space = true
			}
		}
	}
	return b.String()
}

// injectionPhrases are known prompt-injection phrasings aimed at a judge,
// matched at the start of a word of normaliseForMatch output.
var injectionPhrases = []string{
	// Overriding the judge's instructions.
	`ignore (?:(?:all|any|every|the|your|my|of|these|those) )*(?:previous|prior|above|preceding|earlier|former|original|system|other|existing|given) (?:instructions?|prompts?|directions?|rules|guidelines|context|messages?|text|criteria|rubrics?|tasks?)`,
	`ignore (?:(?:all|any|the|your) )*(?:instructions?|rules|guidelines|rubrics?|criteria|evaluation criteria)\b`,
	`disregard (?:(?:all|any|of|the|your|everything) )*(?:above|previous|prior|preceding|earlier|instructions?|rules|rubrics?|criteria|guidelines)`,
	`forget (?:(?:all|any|everything|of|the|your) )*(?:above|previous|prior|instructions?|rules|rubrics?|criteria|you were told)`,
	`(?:override|bypass|overrule) (?:(?:the|your|all|any|previous) )*(?:scoring|evaluation|grading|rubrics?|instructions?|guidelines|criteria)\b`,
	`(?:new|updated|revised|real|actual|true) (?:instructions?|rules|task|system prompt) ?:`,
	`(?:your|the) (?:real|actual|true) (?:task|instructions?|job) (?:is|are)\b`,
	`from now on you\b`,
	`system prompt\b`,
	`(?:reveal|print|repeat|show) (?:me )?your (?:instructions|system prompt|prompt|rubric)\b`,
	`(?:dan|jailbreak|jailbroken|god) mode\b`,
	// Recasting the judge.
	`you are now (?:(?:an?|the|my) (?:[a-z]+ )?(?:evaluator|judge|grader|rater|scorer|assistant|ai|model|bot)s?\b|in (?:[a-z]+ )?mode\b|(?:dan|free|unrestricted|jailbroken|no longer)\b)`,
	`pretend (?:to be|you are|that you are) (?:an? |the )?(?:[a-z]+ )?(?:evaluator|judge|grader|ai|model|assistant|system)\b`,
	`act as (?:the |an |a )?(?:[a-z]+ )?(?:evaluator|judge|grader|system)\b`,
	// Addressing the judge.
	`as (?:the|this|an? (?:ai|llm|automated|impartial)) (?:ai |llm |automated |impartial )?(?:evaluator|judge|grader|assessor|rater|scorer)s? (?:you )?(?:must|should|will|need|are required|have to|shall)\b`,
	`(?:note|message|instructions?|reminder) (?:to|for) (?:the |any )?(?:ai |llm |automated |language model )?(?:evaluators?|judges?|graders?|assessors?|raters?|ai|llms?|assistants?)\b`,
	`(?:dear|attention|hey|hello|hi) (?:ai |llm )?(?:evaluators?|judges?|graders?|assessors?|raters?|scorers?)\b`,
	`(?:(?:ai|llm|automated) judges?|evaluators?|graders?|raters?|scorers?) (?:must|should|shall|will|need to|have to|are instructed to|is instructed to) (?:give|assign|award|rate|score|output|return|mark|grade)\b`,
	`(?:ai|llm|language model|automated) (?:assistants?|models?|agents?|systems?|evaluators?|judges?|graders?)? ?(?:reading|processing|evaluating|summari[sz]ing|grading|reviewing) this\b`,
	`if you are (?:an? )?(?:ai|llm|language model|evaluator|judge|grader|assistant)\b`,
	// Asking for a score.
	`give (?:this|me|it|us|the (?:answer|response|agent|output|model)) (?:a |an |the )?(?:(?:score|rating|grade|marks?) of|(?:perfect|full|maximum|max|top|highest) (?:score|rating|grade|marks?)|(?:10|5|ten|five) ?(?:/ ?(?:10|5)|out of))`,
	`rate (?:this|it|the (?:answer|response|agent|output)|me) (?:a |as |with )?(?:10|5|ten|five|perfect|highest|maximum|excellent|top)\b`,
	`(?:score|grade|mark) (?:this|it|me) (?:as |a |with )?(?:10|5|ten|five|perfect|highest|maximum|full marks|excellent|correct)\b`,
	`(?:assign|award|output|return|give|grant) (?:a |an |the )?(?:perfect|full|maximum|max|highest|top) (?:score|rating|grade|marks?)\b`,
	`(?:deserves|merits|earns|warrants|should get|should receive|must get|must receive) (?:a |an |the )?(?:perfect|full|maximum|max|highest|top|10|5) (?:score|rating|grade|marks?|out of)`,
	`(?:output|return|respond with|reply with|answer with|print|emit) (?:only |just |exactly )?(?:the |this |a )?(?:json )?(?:\{ ?"?|")(?:score|verdict|rating|grade|label)\b`,
	`(?:output|return|respond with|reply with|answer with|print|emit) (?:only |just |exactly )?(?:score|verdict|rating|grade) ?: ?(?:10|5|pass|yes|correct|perfect)\b`,
	`do not (?:penalize|penalise|deduct|mark down|lower the score)\b`,
	`(?:10|5|ten|five) ?/ ?(?:10|5|ten|five) (?:is|would be) (?:the )?(?:correct|right|appropriate|only|fair) (?:score|rating|grade)\b`,
	// Forged ends of the data and forged verdicts.
	`end of (?:untrusted |quoted |agent )?data\b`,
	`(?:evaluation|grading|scoring|judging|assessment) (?:is )?(?:complete|completed|finished|done|over)\b.{0,40}\b(?:score|verdict|rating|grade|pass)`,
	`final (?:score|rating|grade|verdict) (?:is |= |: |:)?(?:(?:10|5|100)(?: ?/| out of|$| [^0-9])|(?:pass|passed|perfect|yes|correct)\b)`,
	`verdict (?:is |= |: |:)?(?:pass|passed|yes|correct|accepted|approved)\b`,
}

// phraseWindow bounds the text one anchored phrase match may span.
const phraseWindow = 256

// injectionRE matches one of injectionPhrases at the start of the text.
var injectionRE = regexp.MustCompile(`^(?:` + strings.Join(injectionPhrases, "|") + `)`)

// isWordRune reports letters and digits of the normalised text.
func isWordRune(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c >= 0x80 }

// injectionSuspected reports whether s contains a known injection
// phrasing: whether a phrase matches at the start of a word of the
// normalised text, within phraseWindow bytes.
func injectionSuspected(s string) bool {
	n := normaliseForMatch(s)
	for i := 0; i < len(n); i++ {
		if !isWordRune(n[i]) || i > 0 && isWordRune(n[i-1]) {
			continue
		}
		if injectionRE.MatchString(n[i:min(len(n), i+phraseWindow)]) {
			return true
		}
	}
	return false
}
