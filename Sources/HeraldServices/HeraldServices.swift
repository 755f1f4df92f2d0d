// HeraldServices
