package simulator

// onDeviceScenario is a smart-home controller running on the user's hub.
func onDeviceScenario() *scenario {
	return &scenario{
		Name:             "on-device",
		Agent:            "device_controller",
		Provider:         "gcp.gemini",
		Model:            "gemini-2.0-flash",
		ResponseModel:    "gemini-2.0-flash-001",
		ServerAddress:    "generativelanguage.googleapis.com",
		ResponseIDPrefix: "resp-",
		System:           "You are a smart-home assistant running on the user's hub. Use the device tools to read and change device state, then confirm what you did in one or two sentences.",
		Apology:          "Sorry, I could not finish that: %s failed (%s). Your devices were otherwise left as they were.",
		Tools: []toolSpec{
			{
				Name:        "list_devices",
				Description: "List the devices in the home, optionally only those in one room.",
				Parameters:  `{"type":"object","properties":{"room":{"type":"string"}},"required":["room"],"additionalProperties":false}`,
				Failures:    []toolFailure{{"HubUnavailableError", "the home hub did not answer"}},
			},
			{
				Name:        "get_device_status",
				Description: "Read the current state of one device.",
				Parameters:  `{"type":"object","properties":{"device_id":{"type":"string"}},"required":["device_id"],"additionalProperties":false}`,
				Failures: []toolFailure{
					{"DeviceOfflineError", "device is offline"},
					{"TimeoutError", "device did not answer within 5s"},
				},
			},
			{
				Name:        "set_device_state",
				Description: "Change the state of one device: power, brightness or target temperature.",
				Parameters: `{"type":"object","properties":{
					"device_id":{"type":"string"},
					"updates":{"type":"object","properties":{
						"status":{"type":"string","enum":["ON","OFF"]},
						"brightness":{"type":"integer","minimum":0,"maximum":100},
						"temperature":{"type":"number","minimum":10,"maximum":32}},
						"additionalProperties":false,"minProperties":1}},
					"required":["device_id","updates"],"additionalProperties":false}`,
				Failures: []toolFailure{
					{"DeviceOfflineError", "device is offline"},
					{"CommandRejectedError", "device rejected the command"},
				},
			},
			{
				Name:        "set_thermostat_schedule",
				Description: "Replace the daily schedule of a climate device.",
				Parameters: `{"type":"object","properties":{
					"device_id":{"type":"string"},
					"schedule":{"type":"array","minItems":1,"items":{"type":"object","properties":{
						"start":{"type":"string","pattern":"^[0-2][0-9]:[0-5][0-9]$"},
						"end":{"type":"string","pattern":"^[0-2][0-9]:[0-5][0-9]$"},
						"mode":{"type":"string","enum":["on","off","eco"]},
						"temperature":{"type":"number"}},
						"required":["start","end","mode"],"additionalProperties":false}}},
					"required":["device_id","schedule"],"additionalProperties":false}`,
				Failures: []toolFailure{
					{"ScheduleConflictError", "schedule overlaps an existing away-mode rule"},
					{"TimeoutError", "device did not answer within 5s"},
				},
			},
			{
				Name:        "get_user_preferences",
				Description: "Read the household member's saved comfort preferences.",
				Parameters:  `{"type":"object","properties":{"user_id":{"type":"string"}},"required":["user_id"],"additionalProperties":false}`,
				Failures:    []toolFailure{{"PreferencesNotFoundError", "no preferences saved for this user"}},
			},
			{
				Name:        "set_temperature",
				Description: "Set the target temperature of a room in degrees Celsius.",
				Parameters:  `{"type":"object","properties":{"location":{"type":"string"},"temperature":{"type":"number","minimum":10,"maximum":32}},"required":["location","temperature"],"additionalProperties":false}`,
				Failures:    []toolFailure{{"DeviceOfflineError", "thermostat is offline"}},
			},
		},
		Tasks: []task{
			{
				Input: "Schedule the bedroom air conditioner to run from 11 PM to 8 AM and stay off the rest of the day.",
				Turns: [][]callSpec{
					{{"get_device_status", `{"device_id":"bedroom_ac"}`, `{"device_id":"bedroom_ac","type":"air_conditioner","status":"OFF","temperature":24}`}},
					{{"set_thermostat_schedule", `{"device_id":"bedroom_ac","schedule":[{"start":"23:00","end":"08:00","mode":"on","temperature":24},{"start":"08:00","end":"23:00","mode":"off"}]}`, `{"device_id":"bedroom_ac","schedule_id":"sch-311","active":true}`}},
				},
				Answer: "Done: the bedroom air conditioner will run from 23:00 to 08:00 at 24 °C and stay off from 08:00 to 23:00.",
			},
			{
				Input: "Turn off device_2.",
				Turns: [][]callSpec{
					{{"set_device_state", `{"device_id":"device_2","updates":{"status":"OFF"}}`, `{"device_id":"device_2","name":"hallway light","status":"OFF"}`}},
				},
				Answer: "The hallway light (device_2) is now off.",
			},
			{
				Input: "Set the living room to my preferred temperature.",
				Turns: [][]callSpec{
					{{"get_user_preferences", `{"user_id":"user_y"}`, `{"user_id":"user_y","preferred_temperature":23,"sleep_time":"23:00"}`}},
					{{"set_temperature", `{"location":"Living Room","temperature":23}`, `{"location":"Living Room","target":23,"current":20.5}`}},
				},
				Answer: "The living room is now heating to your preferred 23 °C; it is 20.5 °C at the moment.",
			},
			{
				Input: "Dim the kitchen lights to 30% and tell me whether the dishwasher is still running.",
				Turns: [][]callSpec{
					{{"list_devices", `{"room":"kitchen"}`, `{"devices":[{"device_id":"kitchen_lights","type":"light"},{"device_id":"dishwasher","type":"appliance"}]}`}},
					{
						{"set_device_state", `{"device_id":"kitchen_lights","updates":{"brightness":30}}`, `{"device_id":"kitchen_lights","status":"ON","brightness":30}`},
						{"get_device_status", `{"device_id":"dishwasher"}`, `{"device_id":"dishwasher","type":"appliance","status":"ON","program":"eco","remaining_minutes":42}`},
					},
				},
				Answer: "The kitchen lights are dimmed to 30%. The dishwasher is still running its eco program, with about 42 minutes left.",
			},
		},
	}
}
