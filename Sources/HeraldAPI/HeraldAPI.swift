// HeraldAPI
