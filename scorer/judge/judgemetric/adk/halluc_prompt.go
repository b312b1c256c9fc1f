package adk

// The hallucinations_v1 prompts, in the project's words, following ADK's
// segmenter and sentence validator (metrics.md §6.4). The trusted
// instructions go in the system prompt; the run content follows in the
// user prompt between the Begin/End markers.

const segmenterSystem = `You are a careful assistant that splits a model-generated response into sentences so that each sentence can be checked later.

Instructions:
1. Split the whole response into individual sentences. Every sentence of the response must appear in your output.
2. Copy each sentence exactly as written, word for word. Do not change the sentence or its punctuation.
3. Every bullet point is a separate sentence, and so is every sub-bullet. Bullets may start with numbers (1/2/3 ...) or symbols such as "*" or "-". For example "it has three criteria: * aaa. * bbb. * ccc" becomes four sentences: "it has three criteria", "aaa", "bbb", "ccc".
4. A table is kept whole as one sentence.
5. Every sentence must be meaningful to analyse; never output symbols alone as a sentence.
6. Output only sentences that occur in the response; never invent new ones.

Output format: wrap each sentence in <sentence> and </sentence>, one per line:
<sentence>...</sentence>
<sentence>...</sentence>

Example
Response:
There are two kinds of tea:
1. Green tea is unoxidised.
2. Black tea is fully oxidised.

Happy brewing!

Output:
<sentence>There are two kinds of tea:</sentence>
<sentence>1. Green tea is unoxidised.</sentence>
<sentence>2. Black tea is fully oxidised.</sentence>
<sentence>Happy brewing!</sentence>`

const segmenterPrompt = "Segment the following response into sentences.\n\n**Response Begin**\n%s\n**Response End**\n\n**Your Sentence Segmentation Output:**"

const validatorSystem = `You are a careful assistant that checks the sentences of a model-generated response against a textual context, one sentence at a time.

Instructions:
1. Read the context carefully.
2. Give each sentence exactly one of these labels:
   * supported: the context entails the sentence. Quote a supporting excerpt that fully entails it.
   * unsupported: the context does not entail the sentence. No excerpt is needed.
   * contradictory: the context shows the sentence is false. Quote a contradicting excerpt.
   * disputed: the context holds both supporting and contradicting information. Quote both excerpts.
   * not_applicable: the sentence needs no factual attribution (opinions, plans, greetings, questions, disclaimers, arithmetic).
3. Give a short rationale for every label, separate from the excerpts.
4. Be strict: unless the context gives direct, indisputable evidence, label the sentence unsupported. Do not use world knowledge unless it is trivial.
5. A "tool_outputs" block holds the results of the "tool_calls" block just above it. Before relying on a tool output, check that the call itself is supported and that its result has no error.
6. Several excerpts may be concatenated; a very long excerpt may be summarised.

Output format: for every sentence, in order, one block of exactly these lines, blocks separated by a blank line:
sentence: <the sentence, copied>
label: <supported | unsupported | contradictory | disputed | not_applicable>
rationale: <short explanation>
supporting_excerpt: <excerpt, or null>
contradicting_excerpt: <excerpt, or null>

Example
Context: Green tea is unoxidised. Black tea is fully oxidised. Oolong is partly oxidised. Oolong is unoxidised.
Sentences:
<sentence>Green tea is unoxidised.</sentence>
<sentence>Black tea is green.</sentence>
<sentence>Oolong is partly oxidised.</sentence>
<sentence>Tea was first drunk in China.</sentence>
<sentence>Happy brewing!</sentence>

Output:
sentence: Green tea is unoxidised.
label: supported
rationale: The context states it directly.
supporting_excerpt: Green tea is unoxidised.
contradicting_excerpt: null

sentence: Black tea is green.
label: contradictory
rationale: The context says black tea is fully oxidised, unlike green tea.
supporting_excerpt: null
contradicting_excerpt: Black tea is fully oxidised.

sentence: Oolong is partly oxidised.
label: disputed
rationale: The context says both that oolong is partly oxidised and that it is unoxidised.
supporting_excerpt: Oolong is partly oxidised.
contradicting_excerpt: Oolong is unoxidised.

sentence: Tea was first drunk in China.
label: unsupported
rationale: The context says nothing about the origin of tea.
supporting_excerpt: null
contradicting_excerpt: null

sentence: Happy brewing!
label: not_applicable
rationale: A greeting needs no attribution.
supporting_excerpt: null
contradicting_excerpt: null`

const validatorPrompt = "Analyse the following context and sentences.\n\n**Context Begin**\n%s\n**Context End**\n\n**Sentences Begin**\n%s\n**Sentences End**\n\n**Output:**"
