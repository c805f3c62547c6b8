// Corner Shop, the demo app: its screens in order (the first is where the app starts),
// assembled into the app description of decisions.md §9. One JSON file per screen.
import app from './app.json' with { type: 'json' };
import catalog from './catalog.json' with { type: 'json' };
import productBeans from './product_beans.json' with { type: 'json' };
import productMug from './product_mug.json' with { type: 'json' };
import productKettle from './product_kettle.json' with { type: 'json' };
import addedToCart from './added_to_cart.json' with { type: 'json' };
import outOfStock from './out_of_stock.json' with { type: 'json' };
import checkout from './checkout.json' with { type: 'json' };
import orderPlaced from './order_placed.json' with { type: 'json' };
import settings from './settings.json' with { type: 'json' };
import signIn from './sign_in.json' with { type: 'json' };
import account from './account.json' with { type: 'json' };

export const cornerShop: unknown = { ...app, screens: [catalog, productBeans, productMug, productKettle, addedToCart, outOfStock, checkout, orderPlaced, settings, signIn, account] };
