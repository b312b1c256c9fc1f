package simulator

// contentCreationScenario is a marketing-campaign assistant.
func contentCreationScenario() *scenario {
	return &scenario{
		Name:             "content-creation",
		Agent:            "campaign_manager",
		Provider:         "anthropic",
		Model:            "claude-3-5-haiku",
		ResponseModel:    "claude-3-5-haiku-20241022",
		ServerAddress:    "api.anthropic.com",
		ResponseIDPrefix: "msg_01",
		System:           "You are a marketing-campaign assistant. Use the tools to inspect and change campaigns. If a tool fails, tell the user honestly.",
		Apology:          "I'm sorry, I couldn't finish the change: %s failed (%s). Nothing else was changed.",
		Tools: []toolSpec{
			{
				Name:        "get_campaign",
				Description: "Fetch a marketing campaign by id.",
				Parameters:  `{"type":"object","properties":{"campaign_id":{"type":"string"}},"required":["campaign_id"],"additionalProperties":false}`,
				Failures:    []toolFailure{{"CampaignServiceError", "campaign service returned 500"}},
			},
			{
				Name:        "reschedule_campaign",
				Description: "Move a campaign to a new start date on a site.",
				Parameters:  `{"type":"object","properties":{"campaign_id":{"type":"string"},"site_id":{"type":"string"},"start_date":{"type":"string","pattern":"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},"one_time":{"type":"boolean"}},"required":["campaign_id","site_id","start_date"],"additionalProperties":false}`,
				Failures: []toolFailure{
					{"CampaignLockedError", "campaign is locked by another editor"},
					{"SiteNotFoundError", "unknown site"},
				},
			},
			{
				Name:        "update_budget",
				Description: "Set the total budget of a campaign.",
				Parameters:  `{"type":"object","properties":{"campaign_id":{"type":"string"},"budget":{"type":"number","exclusiveMinimum":0},"currency":{"type":"string","enum":["USD","EUR"]}},"required":["campaign_id","budget","currency"],"additionalProperties":false}`,
				Failures:    []toolFailure{{"BudgetApprovalRequired", "budget changes above 20% need approval"}},
			},
			{
				Name:        "set_campaign_status",
				Description: "Activate, pause or archive a campaign.",
				Parameters:  `{"type":"object","properties":{"campaign_id":{"type":"string"},"status":{"type":"string","enum":["active","paused","archived"]}},"required":["campaign_id","status"],"additionalProperties":false}`,
				Failures:    []toolFailure{{"CampaignLockedError", "campaign is locked by another editor"}},
			},
			{
				Name:        "create_post",
				Description: "Schedule a social-media post for a campaign.",
				Parameters:  `{"type":"object","properties":{"campaign_id":{"type":"string"},"site_id":{"type":"string"},"text":{"type":"string","minLength":1,"maxLength":280},"publish_at":{"type":"string"}},"required":["campaign_id","site_id","text","publish_at"],"additionalProperties":false}`,
				Failures:    []toolFailure{{"ContentPolicyViolation", "post text was rejected by the site's policy check"}},
			},
		},
		Tasks: []task{
			{
				Input: "Reschedule campaign X as a one-time campaign on social media site Y on December 25, 2024, with the budget cut by 50%.",
				Turns: [][]callSpec{
					{{"get_campaign", `{"campaign_id":"X"}`, `{"campaign_id":"X","site_id":"Y","start_date":"2024-12-01","budget":1000,"currency":"USD","status":"scheduled"}`}},
					{{"reschedule_campaign", `{"campaign_id":"X","site_id":"Y","start_date":"2024-12-25","one_time":true}`, `{"campaign_id":"X","site_id":"Y","start_date":"2024-12-25","one_time":true}`}},
					{{"update_budget", `{"campaign_id":"X","budget":500,"currency":"USD"}`, `{"campaign_id":"X","budget":500,"currency":"USD"}`}},
				},
				Answer: "Campaign X now runs once on site Y on 25 December 2024, and its budget is cut from 1000 to 500 USD.",
			},
			{
				Input: "Pause campaign Z until further notice.",
				Turns: [][]callSpec{
					{{"get_campaign", `{"campaign_id":"Z"}`, `{"campaign_id":"Z","site_id":"W","start_date":"2024-11-01","budget":2500,"currency":"EUR","status":"active"}`}},
					{{"set_campaign_status", `{"campaign_id":"Z","status":"paused"}`, `{"campaign_id":"Z","status":"paused"}`}},
				},
				Answer: "Campaign Z is paused; its remaining budget of 2500 EUR is kept until you resume it.",
			},
			{
				Input: "Write and schedule a launch post for campaign X on site Y for Monday at 9:00.",
				Turns: [][]callSpec{
					{{"get_campaign", `{"campaign_id":"X"}`, `{"campaign_id":"X","site_id":"Y","start_date":"2024-12-01","budget":1000,"currency":"USD","status":"scheduled","product":"Aurora desk lamp"}`}},
					{{"create_post", `{"campaign_id":"X","site_id":"Y","text":"Meet the Aurora desk lamp: warm light that follows your day. Available now.","publish_at":"2024-12-02T09:00:00Z"}`, `{"post_id":"P-5530","status":"scheduled","publish_at":"2024-12-02T09:00:00Z"}`}},
				},
				Answer: "I scheduled a launch post for the Aurora desk lamp on site Y for Monday 2 December at 09:00 (post P-5530).",
			},
		},
	}
}
