package provider

import (
	"encoding/json"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

func TestConfigYAML(t *testing.T) {
	const doc = `
provider: azure_openai
model: gpt-4o
base_url: https://r.openai.azure.com
api_key: azure-key-123
api_version: "2024-10-21"
deployment: prod-4o
headers:
  X-Team: evals
max_output_tokens: 512
temperature: 0.2
structured_output: false
max_tokens_field: max_tokens
`
	var cfg Config
	dec := yaml.NewDecoder(strings.NewReader(doc))
	dec.KnownFields(true)
	if err := dec.Decode(&cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Provider != AzureOpenAI || cfg.Model != "gpt-4o" || cfg.APIKey != "azure-key-123" || cfg.APIVersion != "2024-10-21" ||
		cfg.Deployment != "prod-4o" || cfg.Headers["X-Team"] != "evals" || cfg.MaxOutputTokens != 512 || cfg.Temperature != 0.2 ||
		cfg.Structured() || cfg.MaxTokensField != MaxTokens {
		t.Errorf("decoded %#v", cfg)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, marshal := range []func(any) ([]byte, error){yaml.Marshal, json.Marshal} {
		out, err := marshal(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(out), "azure-key-123") || !strings.Contains(string(out), redacted) {
			t.Errorf("dump shows the key or no redaction mark: %s", out)
		}
	}
}
