package simulator

// customerSupportScenario is a customer-service agent for an online shop.
func customerSupportScenario() *scenario {
	return &scenario{
		Name:             "customer-support",
		Agent:            "support_agent",
		Provider:         "openai",
		Model:            "gpt-4o-mini",
		ResponseModel:    "gpt-4o-mini-2024-07-18",
		ServerAddress:    "api.openai.com",
		ResponseIDPrefix: "chatcmpl-",
		System:           "You are a customer-support agent for the customer C-1042. Use the tools to look up and change orders and tickets, then summarise what you did.",
		Apology:          "I'm sorry, I couldn't complete your request: %s failed (%s). A colleague will follow up by email.",
		Tools: []toolSpec{
			{
				Name:        "get_pending_orders",
				Description: "List the customer's orders that have not shipped yet.",
				Parameters:  `{"type":"object","properties":{"customer_id":{"type":"string","pattern":"^C-[0-9]+$"}},"required":["customer_id"],"additionalProperties":false}`,
				Failures:    []toolFailure{{"OrderServiceUnavailable", "order service returned 503"}},
			},
			{
				Name:        "cancel_order",
				Description: "Cancel an order that has not shipped.",
				Parameters:  `{"type":"object","properties":{"order_id":{"type":"string","pattern":"^A-[0-9]+$"},"reason":{"type":"string","enum":["customer_request","duplicate","fraud"]}},"required":["order_id","reason"],"additionalProperties":false}`,
				Failures: []toolFailure{
					{"OrderAlreadyShippedError", "order has already left the warehouse"},
					{"OrderServiceUnavailable", "order service returned 503"},
				},
			},
			{
				Name:        "get_open_tickets",
				Description: "List the customer's open support tickets.",
				Parameters:  `{"type":"object","properties":{"customer_id":{"type":"string","pattern":"^C-[0-9]+$"}},"required":["customer_id"],"additionalProperties":false}`,
				Failures:    []toolFailure{{"TicketingTimeout", "ticketing system did not answer within 10s"}},
			},
			{
				Name:        "escalate_ticket",
				Description: "Escalate a support ticket to a human agent.",
				Parameters:  `{"type":"object","properties":{"ticket_id":{"type":"string","pattern":"^T-[0-9]+$"},"priority":{"type":"string","enum":["low","normal","high"]}},"required":["ticket_id","priority"],"additionalProperties":false}`,
				Failures:    []toolFailure{{"NoAgentAvailableError", "no tier-2 agent is on shift"}},
			},
			{
				Name:        "get_order_status",
				Description: "Read the status and tracking information of an order.",
				Parameters:  `{"type":"object","properties":{"order_id":{"type":"string","pattern":"^A-[0-9]+$"}},"required":["order_id"],"additionalProperties":false}`,
				Failures:    []toolFailure{{"OrderNotFoundError", "no such order for this customer"}},
			},
			{
				Name:        "issue_refund",
				Description: "Refund an amount to the payment method of an order.",
				Parameters:  `{"type":"object","properties":{"order_id":{"type":"string","pattern":"^A-[0-9]+$"},"amount":{"type":"number","exclusiveMinimum":0},"currency":{"type":"string","enum":["EUR","USD"]}},"required":["order_id","amount","currency"],"additionalProperties":false}`,
				Failures: []toolFailure{
					{"PaymentGatewayError", "payment gateway declined the refund"},
					{"RefundLimitExceeded", "refund exceeds the agent's limit"},
				},
			},
		},
		Tasks: []task{
			{
				Input: "Can you cancel any pending orders and escalate any open support tickets?",
				Turns: [][]callSpec{
					{{"get_pending_orders", `{"customer_id":"C-1042"}`, `{"orders":[{"order_id":"A-1001","status":"pending","item":"Desk lamp"},{"order_id":"A-1002","status":"pending","item":"USB-C cable"}]}`}},
					{{"cancel_order", `{"order_id":"A-1001","reason":"customer_request"}`, `{"order_id":"A-1001","status":"cancelled"}`}},
					{{"cancel_order", `{"order_id":"A-1002","reason":"customer_request"}`, `{"order_id":"A-1002","status":"cancelled"}`}},
					{{"get_open_tickets", `{"customer_id":"C-1042"}`, `{"tickets":[{"ticket_id":"T-77","status":"open","subject":"Package arrived damaged"}]}`}},
					{{"escalate_ticket", `{"ticket_id":"T-77","priority":"high"}`, `{"ticket_id":"T-77","status":"escalated","assigned_to":"tier-2"}`}},
				},
				Answer: "I cancelled your two pending orders, A-1001 and A-1002, and escalated your open ticket T-77 to a human agent.",
			},
			{
				Input: "Where is my order A-2040?",
				Turns: [][]callSpec{
					{{"get_order_status", `{"order_id":"A-2040"}`, `{"order_id":"A-2040","status":"shipped","carrier":"DHL","eta":"2025-11-20"}`}},
				},
				Answer: "Order A-2040 has shipped with DHL and should arrive on 20 November.",
			},
			{
				Input: "I was charged twice for order A-3310, please refund the duplicate charge.",
				Turns: [][]callSpec{
					{{"get_order_status", `{"order_id":"A-3310"}`, `{"order_id":"A-3310","status":"delivered","charges":[{"amount":59.9,"currency":"EUR"},{"amount":59.9,"currency":"EUR"}]}`}},
					{{"issue_refund", `{"order_id":"A-3310","amount":59.9,"currency":"EUR"}`, `{"refund_id":"R-8812","order_id":"A-3310","amount":59.9,"currency":"EUR","status":"issued"}`}},
				},
				Answer: "You were indeed charged twice for A-3310. I refunded the duplicate 59.90 EUR (refund R-8812); it will appear within 5 business days.",
			},
			{
				Input: "Cancel order A-1001, it was a duplicate.",
				Turns: [][]callSpec{
					{{"cancel_order", `{"order_id":"A-1001","reason":"duplicate"}`, `{"order_id":"A-1001","status":"cancelled"}`}},
				},
				Answer: "Order A-1001 is cancelled as a duplicate; you will not be charged for it.",
			},
		},
	}
}
